"""The audit log's actions in words, for the pages (the log stores the namespaced code,
"round.published", so a sentence can be reworded without touching a stored row)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

ACTIONS = {
    "event.created": _("Event created"),
    "event.imported": _("Event imported from a file"),
    "event.restored": _("Event restored from a backup"),
    "event.director_added": _("Director added"),
    "event.pairing_budget": _("Pairing budget raised to search longer"),
    "event.labels_confirmed": _("Labels of the games after the Swiss confirmed"),
    "event.double_entry_on": _("Double entry of results turned on"),
    "event.double_entry_off": _("Double entry of results turned off"),
    "result.first_entry": _("Result entered once, waiting for a second entry"),
    "result.entries_agreed": _("Second entry agreed: result saved"),
    "result.entries_disagree": _("Two entries of a result disagree"),
    "result.disagreement_settled": _("Disagreeing entries settled by the head director"),
    "entrant.added": _("Entrant added"),
    "entrant.imported": _("Entrants imported"),
    "entrant.changed": _("Entrant changed"),
    "entrant.claimed": _("Entry claimed by its player"),
    "entrant.invite_renewed": _("New invite link (the old one no longer works)"),
    "entrant.withdrawn": _("Entrant withdrawn"),
    "entry.entered": _("Entry made on the entry form"),
    "entry.email_confirmed": _("Entry's e-mail address confirmed"),
    "entry.accepted": _("Entry given a place"),
    "entry.waitlisted": _("Entry put on the waiting list"),
    "entry.offered": _("Place offered to an entry"),
    "entry.confirmed": _("Offered place confirmed"),
    "entry.declined": _("Offered place declined"),
    "entry.expired": _("Offered place not confirmed in time: passed on"),
    "entry.withdrawn": _("Entry withdrawn by its link"),
    "entry.director_accepted": _("Entry accepted by the director"),
    "entry.refused": _("Entry refused by the director"),
    "entry.moved_to_waiting": _("Entry moved to the waiting list by the director"),
    "entries.made_entrants": _("Accepted entries made entrants"),
    "registration.settings_changed": _("Registration settings changed"),
    "registration.rating_list": _("Rating list imported"),
    "qualification.built": _("Qualification list built, invitations sent"),
    "series.created": _("Series created"),
    "series.rule_changed": _("Rule of the total changed"),
    "series.stage_added": _("Event added as a stage"),
    "series.scores_imported": _("Stage's scores imported"),
    "series.scores_replaced": _("Stage's scores replaced"),
    "series.stage_moved": _("Stage moved"),
    "series.stage_removed": _("Stage removed"),
    "series.names_merged": _("Two spellings merged into one player"),
    "series.names_unmerged": _("Merge of two spellings undone"),
    "series.feed_added": _("Series now qualifies players for an event"),
    "series.feed_removed": _("Series no longer qualifies players for an event"),
    "series.restored": _("Series restored from a backup"),
    "webhook.added": _("Webhook added"),
    "webhook.enabled": _("Webhook turned on"),
    "webhook.disabled": _("Webhook turned off"),
    "webhook.deleted": _("Webhook deleted"),
    "webhook.gone": _("Webhook turned off: its receiver answered 410 Gone"),
    "webhook.resent": _("Webhook message sent again"),
    "mirror.linked": _("Venue link made: changes are published to the public copy"),
    "mirror.relinked": _("Venue link changed"),
    "mirror.stopped": _("Venue link stopped: no longer published"),
    "mirror.fenced": _("The public copy refused this machine: it no longer writes the event"),
    "mirror.pulled_here": _("Event pulled from the public copy: this machine writes it"),
    "mirror.applied": _("Changes received from the venue"),
    "mirror.taken_over": _("Event taken over on the public copy"),
    "mirror.pulled": _("Event handed to a venue machine"),
    "checkin.absent": _("Marked absent for the next round"),
    "checkin.present": _("Marked present for the next round"),
    "round.drafted": _("Round drafted"),
    "round.published": _("Round published"),
    "round.start_time": _("Start time set"),
    "rating_report.sent": _("WOF file sent to the rating officer"),
    "round.completed": _("Round closed"),
    "round.draft_deleted": _("Draft deleted"),
    "round.redrawn": _("Round paired again"),
    "round.pairing_overridden": _("Pairing changed by hand"),
    "draw.entered": _("Outside draw entered"),
    "correction.result_confirmed": _("Correction confirmed"),
    "correction.withdrawal_confirmed": _("Withdrawal confirmed"),
    "bot_contest.board_chosen": _("Starting board chosen"),
    "bot_contest.final_decided": _("Final decided"),
    "bot_contest.games_imported": _("Games imported"),
    "bot_contest.token_created": _("Referee token created"),
    "bot_contest.token_revoked": _("Referee token revoked"),
    "api_token.created": _("API token created"),
    "api_token.revoked": _("API token revoked"),
    "freestyle.tiebreaker_recorded": _("Tiebreaker recorded"),
    "gokodom.bye_requested": _("Bye by Request asked"),
    "gokodom.deadline": _("Round deadline applied"),
    "gokodom.dispute_settled": _("Disputed result settled by the director"),
    "gokodom.eighth_place": _("8th place decided"),
    "gokodom.message_to_director": _("Player messaged the director"),
    "gokodom.result_confirmed": _("Reported result confirmed"),
    "gokodom.result_disputed": _("Reported result disputed"),
    "gokodom.result_reported": _("Result reported by a player"),
    "gokodom.round_times": _("Round times set"),
    "gokodom.schedule": _("Season dates set"),
    "wpf.eligibility_saved": _("Eligibility saved"),
    "wpf.seeds_from_series": _("Seeds taken from the series again"),
    "wpf.live_puzzle_chosen": _("Live puzzle chosen"),
    "wpf.online_results_revealed": _("Online results revealed"),
    "wpf.preferences_saved": _("Preference list saved"),
    "wpf.puzzles_saved": _("Puzzles saved"),
}


def action_text(action: str) -> str:
    """A stored action in words; an action without a sentence yet reads as its words."""
    found = ACTIONS.get(action)
    if found is not None:
        return str(found)
    return action.split(".", 1)[-1].replace("_", " ").capitalize()


def subject_text(action: str, subject: str, after: Any) -> str:
    """What an entry is about, in words: its subject, or for an import what it brought in
    (how many, and the first few names: the line once read "Entrants imported: ·")."""
    if action == "entrant.imported" and isinstance(after, dict) and "count" in after:
        count = int(after["count"])
        names = [str(n) for n in after.get("names") or []]
        if not names:
            return ngettext("%(count)d entrant", "%(count)d entrants", count) % {"count": count}
        listed = ", ".join(names) + (", …" if count > len(names) else "")
        return ngettext("%(count)d entrant: %(names)s", "%(count)d entrants: %(names)s", count) % {
            "count": count,
            "names": listed,
        }
    from tournaments.words import subject as said  # its round label in the page's language

    return said(subject)
