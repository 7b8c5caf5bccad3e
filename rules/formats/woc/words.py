"""Sentences of the World Othello Championship engine (rules/formats/woc/) and of its WOF
rating-file reader (codes "wof."), by code.

A code whose sentence has a part that varies (a colour, a kind of match, why a bye) takes
that part as a message of its own, so each part is said in the reader's language too.
"""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # -- parts of other sentences --------------------------------------------------------
    # a player by the colour played (IV.6, IV.8)
    "woc.seat.black": _("Black"),
    "woc.seat.white": _("White"),
    # a colour a player plays or is due (II.6.2 d, f)
    "woc.colour.black": _("black"),
    "woc.colour.white": _("white"),
    # the playing systems of II.2, as in "a {system}" and "the {system}"
    "woc.system.name.double_round_robin": _("double round robin"),
    "woc.system.name.round_robin": _("single round robin"),
    "woc.system.name.modified_swiss": _("modified Swiss"),
    "woc.system.name.swiss": _("unmodified Swiss"),
    # a one-game match after the Swiss, as in "a {kind} is one game"
    "woc.kind.playoff": _("playoff"),
    "woc.kind.women_playoff": _("women's playoff"),
    "woc.kind.third_place": _("third place"),
    "woc.kind.women_final": _("women's final"),
    "woc.kind.other": _("other game"),
    # -- settings --------------------------------------------------------------------------
    "woc.setting.rounds": _("'rounds' must be 0 to 50."),
    "woc.setting.c": _("The constant C cannot be negative."),
    "woc.setting.pairing_seconds": _("'pairing_seconds' must be 0 to {most}."),
    "woc.setting.bye_discs": _("'bye_discs' must be 0 to 64."),
    # -- the field and the system (II.2) -------------------------------------------------
    "woc.field.too_few": _("The event needs at least two players."),
    "woc.field.additional": _("Only one additional host player may be designated; {names} are."),
    "woc.field.additional_plays": _(
        "{name} plays as the host's additional player: the field would otherwise be odd."
    ),
    "woc.field.additional_idle": _(
        "{name} does not play: the field is even without the host's additional player."
    ),
    "woc.field.bye": _(
        "The field is odd and no additional host player is designated: each round one "
        "player meets the dummy BYE."
    ),
    "woc.system.by_size": _("{players} players: a {system_name}."),
    "woc.system.override": _("The director chose a {system_name} for {players} players."),
    "woc.rounds.override": _("The director set {rounds} rounds."),
    "woc.finished": _("All {rounds} rounds of the {system_name} have been played."),
    "woc.swiss.day": _(
        "Round {number} of {rounds} (day {day}: seven rounds on the first day, six on the second)."
    ),
    # -- round robins and round 1 (II.2, II.6.1, II.7) -----------------------------------
    # {first} and {second} are draw numbers (places in the Berger table, drawn by lot),
    # never entrant numbers: said so, since the page shows both (issue 28, item 10)
    "woc.round_robin.berger": _(
        "Berger table round {round}: draw number {first} (Black) meets draw number {second} "
        "(White)."
    ),
    "woc.round_robin.berger.alone": _(
        "Berger table round {round}: draw number {first} has no opponent."
    ),
    "woc.bye.odd": _("Paired against the dummy BYE: the field is odd."),
    "woc.bye.absent": _("Paired against the dummy BYE: the opponent is absent."),
    "woc.bye.withdrawn": _("Paired against the dummy BYE: the opponent has withdrawn."),
    "woc.bye.round1": _("The field is odd: the last player drawn meets the dummy BYE."),
    "woc.bye.score": _("A bye scores {points} point(s) and {discs} discs."),
    "woc.round1.group_a": _(
        "Drawn from group A ({player_a}, {colour}) against group B ({player_b})."
    ),
    "woc.round1.random": _(
        "The remaining players are paired by random draw; the first drawn plays Black."
    ),
    # woc.md, Absence: said after "Ann is absent: "
    "woc.absent.swiss": _(
        "not paired this round, which counts as a round not played (no points; in the "
        "Brightwell Quotient 32 + C x own points, as for a bye)"
    ),
    "woc.absent.walkover": _("the match is lost by walkover"),
    # -- the Swiss pairing (II.6.2) ------------------------------------------------------
    "woc.pairing.no_pairs": _("no two players may meet"),
    "woc.pairing.rule_a": _("rule (a) leaves no complete pairing"),
    "woc.pairing.impossible": _(
        "Round {number} cannot be paired: every pairing breaks rule II.6.2(a) ({error}). "
        "The director must pair this round by hand."
    ),
    "woc.pairing.optimal": _(
        "The pairing minimises, in order, the breaches of rules (b) to (g) of II.6.2 among "
        "all pairings allowed by rule (a): {breaches}."
    ),
    # {optimum} is woc.pairing.optimum or woc.pairing.optimum.settled
    "woc.pairing.unproven": _(
        "Not proven optimal: the proof did not finish within the pairing time budget of "
        "{budget} s. This pairing breaks rules (b) to (g) of II.6.2: {breaches}. {optimum} "
        "Publish it, or search longer (the round is paired again with a larger budget)."
    ),
    "woc.pairing.optimum": _("under rule ({rule}) the optimum has between {least} and {cost}."),
    "woc.pairing.optimum.settled": _(
        "No pairing breaks rules ({settled_first})-({settled_last}) less; under rule ({rule}) "
        "the optimum has between {least} and {cost}."
    ),
    "woc.pairing.bye": _(
        "{name} ({points}) is paired against the dummy BYE: the field is odd, and the "
        "best pairing of the round gives it here."
    ),
    "woc.pairing.points_differ": _(
        "Points differ ({first_points} against {second_points}): no pairing keeps every "
        "score group together under rule (a), so the best pairing of the round needs it."
    ),
    "woc.pairing.rematch": _(
        "{first} and {second} have met before; rules (a) and (b) leave no better pairing."
    ),
    "woc.pairing.colour_balance": _(
        "{name} plays {colour} though due {due} (blacks minus whites {balance}); rules "
        "(a)-(c) come first."
    ),
    "woc.pairing.colour_repeat": _(
        "{name} plays {colour} twice in a row; rules (a)-(e) come first."
    ),
    "woc.pairing.float_repeat": _(
        "A player floats in the same direction as last time; rules (a)-(d) come first."
    ),
    "woc.pairing.same_country": _(
        "Both play for {country}: no equivalent pairing under rules (a)-(f) avoids it."
    ),
    "woc.pairing.ideal": _("Equal points, first meeting, colours as due."),
    # -- a game's score (IV.6, IV.8, V.2) ------------------------------------------------
    "woc.match.players": _("A game has two players."),
    "woc.match.games": _("A round of the first two days is one game; {count} were entered."),
    "woc.score.seats": _("Game {game}: an Othello game has two players, Black and White."),
    "woc.score.bye_ending": _("Game {game}: a game between two players cannot end as a bye."),
    "woc.score.missing.black": _("Game {game}: enter the number of black discs on the board."),
    "woc.score.missing.white": _("Game {game}: enter the number of white discs on the board."),
    "woc.score.not_count.black": _(
        "Game {game}: Black discs must be a whole number from 0 to 64; got {value}."
    ),
    "woc.score.not_count.white": _(
        "Game {game}: White discs must be a whole number from 0 to 64; got {value}."
    ),
    "woc.score.over_64": _(
        "Game {game}: Black and white discs add up to {total}; the board has 64 squares."
    ),
    "woc.score.under_4": _(
        "Game {game}: Black and white discs add up to {total}; a finished game has at least "
        "the 4 starting discs on the board."
    ),
    "woc.score.draw": _("A draw is always scored 32-32."),
    "woc.score.empties.one": _("1 empty square counted for the winner ({seat})."),
    "woc.score.empties.many": _("{empties} empty squares counted for the winner ({seat})."),
    "woc.score.declared_mismatch.draw": _(
        "Game {game}: the result was entered as '{declared}' but {shown} on the board is a draw."
    ),
    "woc.score.declared_mismatch.win": _(
        "Game {game}: the result was entered as '{declared}' but {shown} on the board is a "
        "win for {seat} (a draw is 32-32 after empty squares)."
    ),
    "woc.score.decided.value": _(
        "Game {game}: the recorded result must be 'black', 'white' or 'draw'; got {value}."
    ),
    # {who} is woc.decided.draw or woc.decided.won; {how} woc.decided.bare or .discs
    "woc.score.decided": _("The record gives the result ({who}) {how}."),
    "woc.decided.draw": _("a draw"),
    "woc.decided.won": _("{seat} won"),
    "woc.decided.bare": _("without the discs"),
    "woc.decided.discs": _("on the discs as written, {discs}"),
    "woc.score.defaulter.resigned": _("Game {game}: say which player resigned (Black or White)."),
    "woc.score.defaulter.forfeited": _("Game {game}: say which player forfeited (Black or White)."),
    "woc.score.defaulter.defaulted": _("Game {game}: say which player defaulted (Black or White)."),
    "woc.score.defaulter.lost": _("Game {game}: say which player lost (Black or White)."),
    "woc.score.defaulter.time": _(
        "Game {game}: say which player lost on time first (Black or White)."
    ),
    "woc.score.unplayed_discs": _(
        "Game {game}: a game nobody played has no discs on the board; it is scored {score} "
        "for {winner}. Leave the scores empty."
    ),
    "woc.score.resigned": _("{loser} resigned: the official score is 64-0 for {winner}."),
    "woc.score.forfeited": _(
        "{loser} forfeited: the game is scored 64-0 for {winner}, as a resignation."
    ),
    "woc.score.defaulted": _(
        "{loser} defaulted: the game is scored 64-0 for {winner}, as a resignation."
    ),
    "woc.score.lost": _("{loser} lost: the game is scored 64-0 for {winner}, as a resignation."),
    "woc.score.second_flag": _("{loser}'s flag fell a second time: the game is scored 64-0."),
    "woc.score.both_flags": _(
        "{winner}'s flag fell after the two extra minutes: {loser}, who defaulted first, "
        "loses 31-33."
    ),
    "woc.score.second_flag.value": _(
        "Game {game}: 'second_flag' must be 'defaulter' or 'non_defaulter'; got {value}."
    ),
    "woc.score.time_default": _(
        "{loser} lost on time: {winner} wins {score} (the true final score)."
    ),
    "woc.score.time_default.least": _(
        "{loser} lost on time: {winner} wins {score} (at least 33-31)."
    ),
    # -- a director's penalty (V.2) ------------------------------------------------------
    "woc.penalty.shape": _("Game {game}: the penalty is unreadable."),
    "woc.penalty.draw": _("The director declared the game a draw."),
    "woc.penalty.draw.note": _("The director declared the game a draw ({note})."),
    "woc.penalty.award_to": _(
        "Game {game}: say to whom the director awarded the game (Black or White)."
    ),
    "woc.penalty.award": _("The director awarded the game to {seat}: {score}."),
    "woc.penalty.award.note": _("The director awarded the game to {seat} ({note}): {score}."),
    "woc.penalty.kind": _("Game {game}: a penalty is 'score', 'award' or 'draw'; got {kind}."),
    "woc.penalty.scores": _(
        "Game {game}: the director's score needs two whole disc counts, Black then White."
    ),
    "woc.penalty.total": _(
        "Game {game}: the director's score {score} adds up to {total}; an official score "
        "adds up to 64."
    ),
    "woc.penalty.direction": _(
        "Game {game}: a penalty may only change the score to the benefit of the offender's "
        "opponent ({seat})."
    ),
    "woc.penalty.score": _("The director changed the score to {score}."),
    "woc.penalty.score.note": _("The director changed the score to {score} ({note})."),
    # -- matches after the Swiss (II.3.2, III, IV.9) -------------------------------------
    "woc.final.kind": _("Match {match}: unknown kind of game after the Swiss ({kind})."),
    "woc.final.black": _("Game {game}: say which player had Black."),
    "woc.final.one_game": _("A {kind} is one game; {count} were entered."),
    "woc.choice.value": _(
        "The better-ranked player's choice is 'colour' or 'draw_win'; got {choice}."
    ),
    "woc.choice.missing": _(
        "The {kind} was drawn: record whether the better-ranked player chose the colour (a "
        "draw goes to the opponent) or the draw win (IV.9)."
    ),
    "woc.choice.colour": _(
        "A draw: the better-ranked player chose the colour, so the draw goes to the opponent."
    ),
    "woc.choice.draw_win": _(
        "A draw: the better-ranked player let the opponent choose the colour and wins the draw."
    ),
    "woc.final.games": _("A best-of-three match has at most 3 games."),
    "woc.final.colours": _("Colours are reversed for the second game (III.1)."),
    "woc.final.no_third": _(
        "A player who wins the first two games wins the match; no third game is played (III.1)."
    ),
    # {why} is woc.final.game3.discs or woc.final.game3.rank
    "woc.final.game3_choice": _("Game 3: seat {seat_number} chooses the colour ({why})."),
    "woc.final.game3.discs": _("more discs in games 1 and 2"),
    "woc.final.game3.rank": _("equal discs in games 1 and 2: the higher-ranked player in the IFRL"),
    "woc.final.two_wins": _("Won the first and second games: the match is won, no third game."),
    "woc.final.points": _("Won {score} on points."),
    "woc.final.discs": _("Equal on points; won on total discs {discs}."),
    "woc.final.rank": _("Equal on points and discs: the higher-ranked player in the IFRL wins."),
    "woc.final.both_absent": _(
        "Both players are absent: enter the games, or withdraw one of them."
    ),
    "woc.final.walkover": _("Won by walkover: the opponent was absent."),
    # -- the final stages (II.3, II.5, III) ----------------------------------------------
    "woc.finished.final": _("The final stages have been played."),
    "woc.finished.no_finals": _("The qualifying rounds are over; this event has no semi-finals."),
    # the provisional list's order (standings)
    "woc.lot.list": _(
        "Equal on points, Brightwell Quotient and disc count: {names}. Draw lots and record "
        "the order (Appendix A 4)."
    ),
    # next_round, before the final stages
    "woc.lot": _(
        "Draw lots for the players equal on points, BQ and discs near the top ({names}) "
        "before the playoffs and semi-finals can be paired (II.3.1)."
    ),
    "woc.semi_final.open": _("A semi-final is not decided yet; enter its games."),
    "woc.playoff.open": _("A playoff is not decided yet: {matches}."),
    "woc.stage.playoff": _("Playoffs."),
    "woc.stage.semi_final": _("Semi-finals."),
    "woc.stage.final": _("Finals."),
    "woc.playoff": _(
        "Playoff: places {first} and {second} of the provisional list. One game; the "
        "better-ranked player has the choice of colour or draw win (IV.9). 30 minutes per "
        "player (IV.1)."
    ),
    "woc.women_playoff": _(
        "Women's playoff: places {first} and {second} of the WFRL. One game; the "
        "better-ranked player has the choice of colour or draw win (IV.9). 30 minutes per "
        "player (IV.1)."
    ),
    "woc.semi_final": _(
        "Semi-final: places {first} and {second} of the IFRL. Best of three; the "
        "higher-ranked player chooses the colour of game 1, colours reverse for game 2 "
        "(III.1). 35 minutes per player (IV.1)."
    ),
    "woc.final": _(
        "Final: places {first} and {second} of the IFRL. Best of three; the higher-ranked "
        "player chooses the colour of game 1, colours reverse for game 2 (III.1). 40 "
        "minutes per player (IV.1)."
    ),
    "woc.third_place": _(
        "Third place: places {first} and {second} of the IFRL. One game; the better-ranked "
        "player has the choice of colour or draw win (IV.9). 35 minutes per player (IV.1)."
    ),
    "woc.women_final": _(
        "Women's final: places {first} and {second} of the WFRL. One game; the "
        "better-ranked player has the choice of colour or draw win (IV.9). 40 minutes per "
        "player (IV.1)."
    ),
    # -- the ranking lists (II.4, II.5.3, III.5) -----------------------------------------
    "woc.women.semi_final": _(
        "A woman reached the semi-finals: no women's playoffs or final; the women of the "
        "semi-finals are ranked by their final order."
    ),
    "woc.women.final.played": _("Women's final: played."),
    "woc.women.final.pending": _("Women's final: to be played."),
    "woc.team.tie": _(
        "Tie for first place: most games between members of the team, then the team whose "
        "best player, then second player, ranks higher in the IFRL; else equal."
    ),
    # -- WOF rating files (wof.py, wof_structure.py, wof_check.py) --------------------------
    # what the reader says of a line it cannot take (after "line {line}: ")
    "wof.line.binary": _("this is not a text file (it holds binary data)."),
    "wof.line.game": _("cannot read '{text}' as a game."),
    "wof.line.self": _("player {id} plays against himself."),
    "wof.line.discs": _("a game with {discs} discs ({black} + {white}); the board has 64 squares."),
    "wof.line.sign": _("'{sign}' does not agree with the discs {black}-{white}."),
    "wof.line.player": _("'{text}': {why}"),
    "wof.player.fields": _(
        "a player line needs id, NAME, Firstname[, COUNTRY, score, discs, rating]."
    ),
    "wof.player.numbers": _("cannot read its score, disc count or rating."),
    "wof.line.no_games": _("the file has no games."),
    "wof.line.twice": _("player {id} is listed twice (also line {other})."),
    "wof.line.round": _(
        "round {label} where round {expected} was expected: a round header is missing or out "
        "of order."
    ),
    "wof.line.unlisted": _("player {id} is not in the player list."),
    "wof.line.bye": _("round {round}: the bye goes to {id}, not in the player list."),
    # a refused file in one sentence (WofError), and as the import page lists it
    "wof.error.line": _("line {line}: {what}"),
    "wof.error.more": _("{problems} (and {more} more problems)"),
    "wof.invalid": _("Line {line}: {what}"),
    "wof.more": _("... and {more} more problems in the file."),
    "wof.binary": _(
        "This file is not text (it holds binary data): a WOF rating file is a text file of lines."
    ),
    # what the file does not say, or says in its own way (WofFile.notes)
    "wof.winner_first": _(
        "The file writes every game winner first ('>'); {games} games have discs that do not "
        "say so (e.g. line {line}): the sign gives the result, the discs are kept as written."
    ),
    "wof.bq_column": _(
        "The list's last column is '{column}', a Brightwell value, not a disc count: it is not "
        "compared with the games."
    ),
    "wof.added_first": _(
        "{games} games come before the first round header (from line {line}): they are read as "
        "games after the rounds."
    ),
    "wof.twice": _(
        "In {round_count} rounds a player plays more than once (e.g. {id} in round {round}, "
        "line {line}): the games are kept in the rounds the file gives."
    ),
    "wof.left_unplaced": _(
        "The file says who left, not after which round: nobody is marked withdrawn."
    ),
    "wof.unknown_id": _(
        "{games} games name a player without a WOF id ('??????') and the list has {players} "
        "such players: who played them is not known, so they are left out."
    ),
    "wof.no_list": _(
        "The file has no player list: the players are known by their WOF ids from the games; "
        "their names, countries and published scores are not known."
    ),
    "wof.no_rounds": _(
        "The file has no round headers: the games are known in their order, not their rounds. "
        "They are put into {rounds} rounds, each game in the first round in which neither "
        "player has played yet."
    ),
    "wof.rounds_formed": _(
        "The rounds were formed when the file was first read (it had no round headers): "
        "nobody is marked withdrawn."
    ),
    "wof.no_discs": _(
        "{games} of {of} games give the result without the discs: their winners are known, "
        "their disc counts are not (they count 0 discs)."
    ),
    "wof.game_comments": _(
        "{games} game lines end with a comment (line {line}: '{text}'): the games are read, "
        "the comments are not taken as results."
    ),
    "wof.bonus": _(
        "The list adds points to the games' for {players} players ('5+2'): the games' points "
        "are compared with the first number."
    ),
    # the list beside the games (wof_check.py)
    "wof.implied_byes": _(
        "The file leaves {byes} byes out (as PAPP does): a listed player missing from a round "
        "he was still playing in has a bye there, as the list counts it (1 point, {bye_discs} "
        "discs)."
    ),
    "wof.cut_short": _(
        "The games cover fewer rounds or players than the list says: {found}. The file holds "
        "{rounds} rounds: it may have been cut short."
    ),
    "wof.cut_short.short": _(
        "{count} listed players have more points than games (e.g. {id}: {points} points from "
        "{games} games)"
    ),
    "wof.cut_short.absent": _(
        "{count} of {listed} listed players with a score have no game in the file (e.g. {id})"
    ),
    "wof.cut_short.both": _("{short}; {absent}"),
    # what differs between the list and the games, in the import preview's table
    "wof.difference.points": _("points"),
    "wof.difference.discs": _("discs"),
    # -- the rating officer's file (wof_validate.py): {field} is the file's own word -----
    "wof.check.header_empty": _("The header's {field} is empty: fill it in."),
    "wof.check.header_date": _(
        'The header\'s Date reads "{value}": write it dd/mm/yyyy, or the first and last '
        "days as dd/mm/yyyy - dd/mm/yyyy."
    ),
    "wof.check.name_empty": _("Player {id} has no {field}: type the entrant's names apart."),
    "wof.check.name_digits": _(
        "Player {id}'s {field} reads \"{value}\": a name has no digits. Type the entrant's "
        "family and given names."
    ),
    "wof.check.name_guessed": _(
        'Player {id} was typed as one name, split here as NAME "{name}", Firstname '
        '"{first}": check it, or type the family and given names.'
    ),
    "wof.check.no_discs": _(
        "The game {black} v {white} has a result and no discs: type its discs, or mark it "
        "a forfeit."
    ),
    "wof.check.few_discs": _(
        "The game {black} v {white} reads {discs}: a finished game leaves at least {fewest} "
        "discs on the board. Type its discs, or mark it a forfeit."
    ),
    "wof.check.contradiction": _("{what}"),
    "wof.check.unreadable": _("The file cannot be read here: {what}"),
    "wof.check.list": _("Player {id}'s {field} in the list is {listed}; the games give {games}."),
    # -- the checker's findings (checker.py); {players} and the like are as recorded -----
    "woc.check.system": _("{players} players play a {expected}; the record uses a {system}."),
    "woc.check.swiss_rounds": _("A Swiss of the WOC has 13 rounds; the record plans {planned}."),
    "woc.check.too_many_rounds": _(
        "The record has {rounds} qualifying rounds; the system has {planned}."
    ),
    "woc.check.field": _(
        "The field of round 1 is not the players present (with the host's additional player "
        "only when the field would otherwise be odd)."
    ),
    "woc.check.byes": _(
        "Round {number} has {count} byes for {players} players; only an odd field meets the "
        "BYE, and only one player."
    ),
    "woc.check.berger.no_round": _("Round {number} is not in the Berger tables of the field."),
    # {seats}: a game (the message below) or a player alone (a round off)
    "woc.check.berger.missing": _(
        "Round {number}: {seats} is in the Berger table but not in the record."
    ),
    "woc.check.berger.extra": _(
        "Round {number}: {seats} is in the record but not in the Berger table."
    ),
    "woc.check.berger.game": _("{black} (Black) v {white}"),
    "woc.check.alternate.black": _(
        "Table {table}: the group A player should have Black (draw {draw})."
    ),
    "woc.check.alternate.white": _(
        "Table {table}: the group A player should have White (draw {draw})."
    ),
    "woc.check.round_one": _(
        "Round 1 pairs {found} group A players against group B; the rule pairs {expected} "
        "(until one of the two groups is empty)."
    ),
    "woc.check.bye_again": _("{player} meets the BYE again."),
    "woc.check.met": _("{player} and {opponent} have met {times} times before."),
    "woc.check.better_pairing": _(
        "Round {number}: another pairing breaks rule ({letter}) less ({best_cost} against "
        "{cost}) without breaking a higher rule more."
    ),
    # the engine's problems with a game's score, each its own message, joined
    "woc.check.score": _("{problems}"),
    "woc.check.score.and": _("{first}; {rest}"),
    "woc.check.points": _(
        "{match_code}: Black has {black_discs} discs to {white_discs} but scores {scored}."
    ),
    # {column}: the standings column's key (points, bq, discs)
    "woc.check.column": _("{player}'s {column} is {shown_as}; the record gives {gives}."),
    "woc.check.order": _("{below} is ranked below {above} with better points, BQ or discs."),
    "woc.check.shared_rank": _(
        "{above} and {below} share rank {rank} but differ in points, BQ or discs."
    ),
}

# -- labels (rules/words.py, ``patterns``) ----------------------------------------------
BQ_HELP = _("Brightwell Quotient, C = {c} (Appendix A).")  # a standings column's help
LOT_PLACE = _("lot place {n}")  # a drawing of lots, as a tie's detail shows it

LABELS: tuple[str, ...] = (BQ_HELP, LOT_PLACE)
