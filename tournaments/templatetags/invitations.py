"""The invite link of an entrant, absolute, built from the request being answered."""

from django import template

from accounts.services import invite_url

register = template.Library()


@register.simple_tag(takes_context=True)
def invite_link(context, entrant):
    return invite_url(entrant, context.get("request"))
