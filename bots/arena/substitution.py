"""Seat-substitution tournaments: one seat swapped, the rest of the table fixed (issue 4).

A multi-player game such as Good Cop Bad Cop has no two sides to swap, so :mod:`.arena`'s line-ups
do not measure what a bot adds to a table. This mode asks instead: with the same *field* ``F`` in
every other seat, how much more often does the seat win when candidate ``A`` sits in it than when
baseline ``B`` does? For each deal and each chosen seat ``s`` the deal is played twice:

* seat ``s`` = A, every other seat = F;
* seat ``s`` = B, every other seat = F (F defaults to B, so the second game is an all-B table).

Both games use the deal's seed, built as :func:`.arena.play_game` builds every game: one Generator
seeded with the deal's seed spawns a child per seat and one for chance. Chance draws from its own
child, never from a bot's, so the deal (cards, dice, shuffles) is the same in both games whatever
sits in seat ``s``; the field's bots get the same generators too. The only difference between the
two games of a pair is the bot in seat ``s`` (and what the rest of the table does in answer). Two
identical bots (A = B, with the same options) therefore play identical games.

Per entrant (A, B) the report counts, for the substituted seat: games, wins (the seat's return is
above 0), draws (its return is 0), the win rate with a Wilson 95% interval (:func:`.arena.wilson_interval`)
and the mean seconds per decision of that seat; once per *team* of the seat and once overall (and,
for an entrant with a ``seconds`` budget, how often that seat's decisions overran it:
:class:`.arena.Overrun`). The
team is :meth:`State.team` read at the end of the game (the "honest"/"crooked" team in Good Cop Bad
Cop, whose cards can change hands during play; "factor"/"detectives" in Police 07), so the two games
of one pair can land in different team rows; games of a game without teams count only overall.

The headline number is the *paired* difference in win rate, A - B, over the (deal, seat) pairs: the
mean of the per-pair differences ``d = win_A - win_B`` (each -1, 0 or +1) with the large-sample
normal interval ``mean(d) +- z * sd(d) / sqrt(n)``, ``sd`` the sample standard deviation (n - 1).
Pairing removes the luck of the deal and the seat from the comparison, so it is far tighter than
two independent Wilson intervals. With n in place of n - 1 this is the Wald interval for the
difference of two dependent (matched-pair) proportions (Agresti 2002, section 10.1); like every
Wald interval it is optimistic for few pairs, and collapses to a point when every pair agrees.

*Team filter* (``team=``): a bot built for one team (the Dirty Cop of Police Precinct) is measured
only where its seat is on that team. The filter reads the seat's team in the pair's *baseline* game
(B in the seat): the B games are played first, and the A game of a (deal, seat) is played only when
``record.teams[seat]`` of that B game, the team at its end, is ``team``; the other pairs are left
out of the report entirely. In Police Precinct the loyalty deal is a chance draw that depends on the
deal's seed alone, so the dirty seat is the same in both games of a pair; in Good Cop Bad Cop
integrity cards change hands during play, so the seat's team in the A game (the ``team`` of its
tally row) may differ from the baseline's. A team that no baseline game has gives a report with no
pairs (its difference says so), not an error: which teams a game has is the game's business.

*One baseline table per deal*: when the field is B (``field`` is None or equal to ``b``: the same
name and equal options), the B game of every substituted seat of a deal is the same all-B table
on the same seed, so it is played once per deal and its record serves every seat's pair (it is
listed once per seat in :meth:`SubstitutionReport.records`, as before). A bot with a wall-clock
budget plays such a table a little differently each time it is replayed; one replay is as good a
sample as another. ``played_games`` in the report counts the games actually played.

Backends, seeds, reproduction data and the no-I/O rule are :mod:`.arena`'s, and reused from it.

Reference: A. Agresti (2002), Categorical Data Analysis, 2nd ed., Wiley, section 10.1 "Comparing
dependent proportions".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from bots.arena.tournament import (
    OVERALL,
    SIDES,
    BotSpec,
    GameRecord,
    Job,
    Overrun,
    PairedDifference,
    RunStats,
    Side,
    Tally,
    TournamentReport,
    check_bot,
    check_run,
    deal_seeds,
    environment,
    overrun,
    paired_difference,
    play_jobs,
    report_text,
)
from solver.core import JSON, ConfigError, Game, Seat

#: Version of the JSON report's layout; bumped when a key changes meaning or goes away.
SCHEMA: Final = "copsolver.substitution/1"


# --- one game and the statistics ----------------------------------------------------------------


@dataclass(frozen=True)
class SubstitutionGame:
    """One game: its deal, the substituted seat, who sat in it (A or B), and the record."""

    deal: int  # index of the deal, 0..games-1
    seat: Seat
    side: Side
    record: GameRecord

    @property
    def team(self) -> str | None:
        """The substituted seat's team at the end of the game (None when the game has none)."""
        return self.record.teams[self.seat] if self.record.teams else None

    @property
    def won(self) -> bool:
        """The substituted seat's return is above 0."""
        return self.record.returns[self.seat] > 0

    @property
    def drawn(self) -> bool:
        """The substituted seat's return is 0."""
        return self.record.returns[self.seat] == 0

    def to_json(self) -> JSON:
        """The game as a JSON object (the record's keys, plus deal, seat, side and the seat's team)."""
        return {"deal": self.deal, "seat": self.seat, "side": self.side, "team": self.team} | (
            self.record.to_json()
        )


def tally(played: Sequence[SubstitutionGame], entrants: Mapping[Side, BotSpec]) -> list[Tally]:
    """The substituted seat's results: per team (sorted), A then B, then both overall.

    A :class:`.arena.Tally` whose ``role`` is the seat's final team, or :data:`.arena.OVERALL`.
    """
    teams = sorted({g.team for g in played if g.team is not None})
    rows = []
    for team in [*teams, OVERALL]:
        for side in SIDES:
            chosen = [g for g in played if g.side == side and team in (g.team, OVERALL)]
            if not chosen:
                continue
            rows.append(
                Tally(
                    side=side,
                    bot=entrants[side].label,
                    role=team,
                    games=len(chosen),
                    wins=sum(g.won for g in chosen),
                    draws=sum(g.drawn for g in chosen),
                    moves=sum(g.record.decisions[g.seat] for g in chosen),
                    seconds=sum(g.record.seconds[g.seat] for g in chosen),
                )
            )
    return rows


def pair_up(played: Sequence[SubstitutionGame]) -> list[tuple[SubstitutionGame, SubstitutionGame]]:
    """The (A game, B game) of each (deal, seat), in report order; ConfigError if one is missing."""
    games: dict[tuple[int, Seat, Side], SubstitutionGame] = {(g.deal, g.seat, g.side): g for g in played}
    keys = list(dict.fromkeys((g.deal, g.seat) for g in played))
    missing = [k for k in keys if (*k, "A") not in games or (*k, "B") not in games]
    if missing:
        raise ConfigError(f"substitution: deal/seat {missing[0]} lacks its A or its B game")
    return [(games[(*k, "A")], games[(*k, "B")]) for k in keys]


def compare(played: Sequence[SubstitutionGame]) -> PairedDifference:
    """The paired difference A - B in win rate of the same (deal, seat)."""
    return paired_difference([int(a.won) - int(b.won) for a, b in pair_up(played)])


# --- the report ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SubstitutionReport(TournamentReport):
    """A finished substitution tournament: settings, every game, the tallies, the paired difference.

    Its tallies' ``role`` is the substituted seat's team at the end (or ``overall``).
    """

    field: BotSpec
    seats: tuple[Seat, ...]
    played: tuple[SubstitutionGame, ...]
    difference: PairedDifference
    team: str | None  # substitute only seats on this team in the baseline game (None: every seat)
    played_games: int  # games actually played (a shared baseline table counts once)

    schema: ClassVar[str] = SCHEMA

    def body(self) -> JSON:
        """Deals, entrants, field, seats, the per-team results and the paired difference."""
        results = []
        for t in self.tallies:
            row = t.to_json()
            row["team"] = row.pop("role")
            results.append(row)
        return {
            "mode": "substitution",
            "games_per_seat": self.games,
            "total_games": len(self.played),
            "played_games": self.played_games,
            "team": self.team,
            "team_filter": "the substituted seat's team at the end of its baseline (B) game",
            "entrants": {side: spec.to_json() for side, spec in self.entrants.items()},
            "field": self.field.to_json(),
            "seats": list(self.seats),
            "team_is": "the substituted seat's team at the end of the game",
            "results": results,
            "difference": self.difference.to_json(),
            "headline": headline(self),
        }

    def records(self) -> list[JSON]:
        """Every game as JSON: deal-major, then seat, then A before B."""
        return [g.to_json() for g in self.played]

    def overruns(self) -> list[Overrun]:
        """Per entrant with a time budget: the substituted seat's decisions, against the budget."""
        out = []
        for side in SIDES:
            times = [t for g in self.played if g.side == side and g.seat < len(g.record.step_seconds)
                     for t in g.record.step_seconds[g.seat]]
            check = overrun(side, self.entrants[side], times)
            if check is not None:
                out.append(check)
        return out


#: ``progress(done, total, game)`` after each game played, in completion order. ``done`` counts the
#: games played so far and ``total`` the games known to be played: with a team filter the A games
#: are known only once the baseline games are in, so ``total`` grows once, between the phases
#: (``done <= total`` always, and the last call has ``done == total == report.played_games``). A
#: baseline table shared by several seats is one game and one call, whose ``game`` is the first
#: substituted seat's (its record is the same for every seat: :func:`baseline_seats`).
Progress: TypeAlias = Callable[[int, int, SubstitutionGame], None]


def same_field(b: BotSpec, field: BotSpec | None) -> bool:
    """True when the field is B (None, or the same name with equal options): one baseline table per deal."""
    return field is None or field == b


def check_team(team: str | None) -> str | None:
    """``team`` as given; ConfigError for an empty or non-string name (any other name is the game's)."""
    if team is not None and (not isinstance(team, str) or not team.strip()):
        raise ConfigError(f"substitution: team must be a non-empty name, not {team!r}")
    return team


def on_team(record: GameRecord, seat: Seat, team: str | None) -> bool:
    """Whether ``seat`` of a baseline game is substituted: no filter, or its team at the end is ``team``."""
    return team is None or (seat < len(record.teams) and record.teams[seat] == team)


def baseline_seats(game: SubstitutionGame, seats: Sequence[Seat], team: str | None,
                   shared: bool) -> tuple[Seat, ...]:
    """The substituted seats whose pair a baseline (B) game serves: of ``seats`` when the table is
    ``shared`` (the field is B), else its own seat; those on ``team`` if one is given."""
    candidates = tuple(seats) if shared else (game.seat,)
    return tuple(s for s in candidates if on_team(game.record, s, team))


def check_seats(game: Game, seats: Sequence[int] | None) -> tuple[Seat, ...]:
    """The seats to substitute: all of them by default; ConfigError for an empty, repeated or bad list."""
    if game.num_players < 2:
        raise ConfigError(f"substitution: {game.name} has {game.num_players} seat(s); it needs 2 or more")
    if seats is None:
        return tuple(range(game.num_players))
    chosen = tuple(seats)
    if not chosen:
        raise ConfigError("substitution: name at least one seat")
    for seat in chosen:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
            raise ConfigError(f"substitution: seat {seat!r} is not 0..{game.num_players - 1} of {game.name}")
    if len(set(chosen)) != len(chosen):
        raise ConfigError(f"substitution: seats {list(chosen)} name a seat twice")
    return chosen


def run(
    game: Game,
    a: BotSpec,
    b: BotSpec,
    *,
    games: int,
    seed: int,
    field: BotSpec | None = None,
    seats: Sequence[int] | None = None,
    team: str | None = None,
    backend: str = "serial",
    workers: int | None = None,
    progress: Progress | None = None,
    command: Sequence[str] | None = None,
) -> SubstitutionReport:
    """Play ``games`` deals; on each, substitute A and then B into each of ``seats`` (default all).

    Every other seat holds ``field`` (default ``b``). With ``team``, only the (deal, seat) pairs
    whose seat is on that team in the baseline (B) game are kept: the B games are played first,
    then the A games of the pairs that match (see the module's docstring). When the field is B the
    all-B table of a deal is played once and serves every seat. Each bot is built once for every
    seat it will take before any game starts, so a bad bot or option fails at once with a
    ConfigError. ``workers`` and ``backend`` as in :func:`.arena.run`; ``progress``: :data:`Progress`.
    """
    check_run(games, workers, backend)
    chosen = check_seats(game, seats)
    check_team(team)
    seeds = deal_seeds(seed, games)
    crowd = b if field is None else field
    shared = same_field(b, field)
    entrants: dict[Side, BotSpec] = {"A": a, "B": b}
    for side in SIDES:
        for seat in chosen:
            check_bot(game, entrants[side], seat, f"entrant {side} ({entrants[side].label}) at seat {seat}")
    field_seats = sorted({f for s in chosen for f in range(game.num_players) if f != s})
    for seat in field_seats:
        check_bot(game, crowd, seat, f"the field ({crowd.label}) at seat {seat}")

    def table(seat: Seat, side: Side) -> dict[Seat, BotSpec]:
        return {s: entrants[side] if s == seat else crowd for s in range(game.num_players)}

    # A key is (deal, seat, side); a shared baseline table is keyed by the first chosen seat.
    baseline: list[tuple[int, Seat, Side]] = [
        (deal, seat, "B") for deal in range(games) for seat in (chosen[:1] if shared else chosen)
    ]
    every_a: list[tuple[int, Seat, Side]] = [(deal, seat, "A") for deal in range(games) for seat in chosen]
    records: dict[tuple[int, Seat, Side], GameRecord] = {}

    def baseline_of(deal: int, seat: Seat) -> GameRecord:
        return records[deal, chosen[0] if shared else seat, "B"]

    def play(keys: list[tuple[int, Seat, Side]], offset: int) -> RunStats:
        """Play the games of ``keys`` as one batch; progress counts on from ``offset`` games."""
        jobs = [Job(index, table(seat, side), seeds[deal]) for index, (deal, seat, side) in enumerate(keys)]

        def finish(job: Job, record: GameRecord) -> SubstitutionGame:
            deal, seat, side = keys[job.index]
            records[deal, seat, side] = record
            return SubstitutionGame(deal, seat, side, record)

        def tick(count: int, total: int, played: SubstitutionGame) -> None:
            if progress is not None:  # always, when tick is passed; mypy cannot see it
                progress(offset + count, offset + total, played)

        told = tick if progress is not None else None
        return play_jobs(game, jobs, finish, backend=backend, workers=workers, progress=told)[1]

    if team is None:
        # every A game is known at once: one batch (one process pool), in report order
        batches = [sorted(baseline + every_a)]
        runs = [play(batches[0], 0)]
    else:
        # the baseline first; then the A games of the pairs whose seat is on the team there
        runs = [play(baseline, 0)]
        wanted = [key for key in every_a if on_team(baseline_of(key[0], key[1]), key[1], team)]
        batches = [baseline, wanted]
        if wanted:  # a run where no seat is on the team ends here, with no pairs
            runs.append(play(wanted, len(baseline)))

    complete = []
    for deal in range(games):
        for seat in chosen:
            if (deal, seat, "A") in records:  # every pair without a filter; the team's with one
                complete.append(SubstitutionGame(deal, seat, "A", records[deal, seat, "A"]))
                complete.append(SubstitutionGame(deal, seat, "B", baseline_of(deal, seat)))
    return SubstitutionReport(
        game=game.name,
        config=game.config(),
        entrants=entrants,
        field=crowd,
        seats=chosen,
        seed=seed,
        deal_seeds=tuple(seeds),
        played=tuple(complete),
        tallies=tuple(tally(complete, entrants)),
        difference=compare(complete),
        team=team,
        played_games=sum(len(keys) for keys in batches),
        backend=backend,
        workers=max(r.workers for r in runs),
        started=runs[0].started,
        elapsed=sum(r.elapsed for r in runs),
        command=None if command is None else tuple(command),
        environment=environment(),
    )


# --- the table ----------------------------------------------------------------------------------


def headline(report: SubstitutionReport) -> str:
    """One line: ``ismcts in a heuristic field: +9.2 points over heuristic (95% CI +3.1 to +15.3)``."""
    a, b, crowd = report.entrants["A"].label, report.entrants["B"].label, report.field.label
    d = report.difference
    if d.mean is None:
        where = "" if report.team is None else f" (no seat was on team {report.team} in a baseline game)"
        return f"{a} in a {crowd} field: no games{where}"
    low, high = d.interval
    return (
        f"{a} in a {crowd} field: {100.0 * d.mean:+.1f} points over {b} "
        f"(95% CI {100.0 * low:+.1f} to {100.0 * high:+.1f}; {d.pairs} pairs, "
        f"A alone won {d.a_wins}, B alone won {d.b_wins})"
    )


def format_report(report: SubstitutionReport, width: int = 240) -> str:
    """The settings, the tallies as a text table, the headline and how the run went."""
    players = report.config.get("players", "")
    size = f" ({players} players)" if players else ""
    seats = ", ".join(str(s) for s in report.seats)
    if report.team is None:
        size_up = f"{report.games} deals x {len(report.seats)} seat(s) x 2 = {len(report.played)} games"
    else:
        size_up = (f"{report.games} deals, only the seats on team {report.team} in the baseline game: "
                   f"{len(report.played) // 2} pair(s) = {len(report.played)} games")
    if report.played_games != len(report.played):
        size_up += f" ({report.played_games} played: one all-B baseline game a deal serves every seat)"
    head = (
        f"{report.game}{size}: substitution, A = {report.entrants['A'].label} vs "
        f"B = {report.entrants['B'].label} in seat(s) {seats}, field = {report.field.label}; "
        f"{size_up}, seed {report.seed}"
    )
    note = "Wins, draws and times are the substituted seat's; a team is that seat's team at the end."
    notes = f"{note}\n{headline(report)}"
    return report_text(report, head, "team at end", notes, width)
