"""The invite link of an entrant, absolute, built from the request being answered."""

from django import template
from django.template import Context

from accounts.services import invite_url
from tournaments.models import Entrant

register = template.Library()


@register.simple_tag(takes_context=True)
def invite_link(context: Context, entrant: Entrant) -> str:
    return invite_url(entrant, context.get("request"))
