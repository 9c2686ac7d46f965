"""The ``boardlab`` command line: list games, show rules, count perft, play, replay
and run bot matches.

Only public APIs are used: the game registry, the game protocol, the bots and the
arena. Every :class:`~boardlab.errors.BoardlabError` (unknown game, bad option,
bad move) is turned here, at the edge, into one line ``error: ...`` on stderr and
exit status 2.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer

import boardlab
from boardlab.catalog import resolve
from boardlab.cli.common import MAX_SEED, echo_json, new_app, progress, working
from boardlab.cli.common import edge as _edge
from boardlab.core.engine import Engine
from boardlab.core.game import Game, State
from boardlab.core.registry import game_class, names
from boardlab.errors import BoardlabError, BotError, OptionError

if TYPE_CHECKING:
    from boardlab.ai.arena import ArenaResult
    from boardlab.ai.bots import Bot

# Bots, solvers, the puzzles and the store are imported by the commands that use them:
# `boardlab --help`, `--version` and `games` answer without loading numba, numpy or
# SQLAlchemy (benchmarks/cli_startup.py measures it).
app = new_app("boardlab: abstract board games, bots and puzzles.")

HUMAN = "human"
QUIT_WORDS = ("quit", "exit")
HELP_WORDS = ("?", "help")

#: Bounds of the numeric inputs: each is far beyond any sensible run, and keeps a typo
#: from asking for a search that never ends or a table that does not fit in memory.
MAX_PERFT_DEPTH = 64
MAX_SEARCH_DEPTH = 64
MAX_SECONDS = 86_400.0
MIN_SECONDS = 0.001
MAX_ITERATIONS = 10_000_000
MAX_GAMES = 100_000
MAX_TABLE_BITS = 27
MAX_NODES = 10**10

GameName = Annotated[str, typer.Argument(
    help="A game name (see `boardlab games`) or a Zillions rule file (.zrf).")]
VariantOption = Annotated[str | None, typer.Option(
    "--variant", help="A ZRF file's variant: its number (0 is the game itself) or title.")]
OptionList = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE", help="A game option; repeat for several.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
EngineOption = Annotated[Engine | None, typer.Option(
    "--engine", case_sensitive=False,
    help="What plays a game of the move language: its compiled kernel (the default), "
         "background (the interpreter until the kernel is compiled) or "
         "the interpreter, the reference (no compilation).")]
SeedOption = Annotated[int | None, typer.Option(
    min=0, max=MAX_SEED,
    help="Seed of the bots (bot i gets SEED + i); omit for fresh randomness.")]
DepthOption = Annotated[int | None, typer.Option(
    min=1, max=MAX_SEARCH_DEPTH, help="alphabeta: depth budget in plies.")]
TimeOption = Annotated[float | None, typer.Option(
    "--time", min=MIN_SECONDS, max=MAX_SECONDS,
    help="alphabeta, mcts, exact: time budget per move in seconds.")]
IterationsOption = Annotated[int | None, typer.Option(
    min=1, max=MAX_ITERATIONS, help="mcts: iterations per move.")]
WorkersOption = Annotated[int | None, typer.Option(
    min=1, max=64, help="mcts: cores to search on (root parallelism; one search each).")]


def _add_subcommands() -> None:
    from boardlab.cli import pipes, pipes_store, triplex, zrf

    app.add_typer(triplex.app, name="triplex")
    pipes_store.register(pipes.app)
    app.add_typer(pipes.app, name="pipes")
    app.add_typer(zrf.app, name="zrf")


_add_subcommands()


def main() -> None:
    """Entry point of the ``boardlab`` script."""
    app()


# --- helpers ----------------------------------------------------------------------
def _options(texts: Sequence[str] | None) -> dict[str, str]:
    """The ``--option KEY=VALUE`` texts as a mapping (each value read by its option when
    :func:`~boardlab.catalog.resolve` makes the game)."""
    values: dict[str, str] = {}
    for text in texts or ():
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"--option needs KEY=VALUE, got {text!r}")
        values[key] = value.strip()
    return values


def _number(value: Fraction | float | int) -> int | float:
    """An int when ``value`` is integral, else a float (JSON-friendly points)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) else float(value)


def describe_outcome(game: Game, returns: Sequence[Fraction]) -> str:
    """A sentence for the end of a game, e.g. ``X wins (X 1, O 0)``.

    >>> from boardlab import load
    >>> from boardlab.core.game import DRAW
    >>> describe_outcome(load("tic-tac-toe"), DRAW)
    'draw (X 1/2, O 1/2)'
    """
    player_names = game.player_names
    # A chance player (a die) scores nothing and is not named.
    seats = [i for i in range(len(returns)) if i not in game.chance_players]
    best = max(returns[i] for i in seats)
    winners = [player_names[i] for i in seats if returns[i] == best]
    points = ", ".join(f"{player_names[i]} {returns[i]}" for i in seats)
    if best == 0 and game.chance_players:
        head = "nobody wins"
    elif len(winners) == len(seats):
        head = "draw"
    elif len(winners) == 1:
        head = f"{winners[0]} wins"
    else:
        head = f"{' and '.join(winners)} share the win"
    return f"{head} ({points})"


def players_text(game: Game | type[Game]) -> str:
    """The players, a chance player marked: ``?Die (random), White, Black``."""
    return ", ".join(f"{name} (random)" if i in game.chance_players else name
                     for i, name in enumerate(game.player_names))


#: The command-line name of each bot option.
_BOT_FLAGS = {"depth": "--depth", "time": "--time", "iterations": "--iterations",
              "workers": "--workers"}


def _make_bots(kinds: dict[int, str], seed: int | None, depth: int | None,
               seconds: float | None, iterations: int | None,
               workers: int | None = None) -> dict[int, Bot]:
    """A bot for each seat of ``kinds`` (seat -> bot kind; the bot of seat i is seeded
    with ``seed + i``). A budget option that none of the bots uses is an error rather
    than silently ignored."""
    from boardlab.ai.bots import bot_kind, bot_names, make_bot

    budgets = {"depth": depth, "time": seconds, "iterations": iterations, "workers": workers}
    accepted = {option for kind in kinds.values() for option in bot_kind(kind).options}
    for option, value in budgets.items():
        if value is not None and option not in accepted:
            users = [k for k in bot_names() if option in bot_kind(k).options]
            given = " or ".join(dict.fromkeys(kinds.values())) or "human players"
            raise OptionError(f"{_BOT_FLAGS[option]} applies to {', '.join(users)}, "
                              f"not to {given}")
    return {seat: make_bot(kind, seed=None if seed is None else seed + seat, **budgets)
            for seat, kind in kinds.items()}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"boardlab {boardlab.__version__}")
        raise typer.Exit()


# --- commands ---------------------------------------------------------------------
@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Show the version and exit.")] = False,
) -> None:
    """boardlab: abstract board games, bots and puzzles."""


@app.command()
def games(as_json: JsonFlag = False) -> None:
    """List the registered games."""
    with _edge():
        rows = []
        for name in names():
            cls = game_class(name)
            rows.append({"name": name, "description": cls.description, "source": cls.source,
                         "players": list(cls.player_names),
                         "chance": sorted(cls.chance_players),
                         "options": [o.describe() for o in cls.option_schema]})
        if as_json:
            echo_json(rows)
            return
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(title="boardlab games")
        table.add_column("name", no_wrap=True)
        table.add_column("players")
        table.add_column("description")
        for row in rows:
            table.add_row(Text(row["name"]), Text(players_text(game_class(row["name"]))),
                          Text(row["description"]))
        Console().print(table)


@app.command()
def rules(game: GameName, option: OptionList = None, variant: VariantOption = None,
          as_json: JsonFlag = False) -> None:
    """Show a game's description, source, players, options and rules.

    The rules are rendered as formatted text on a terminal; `--json` gives them as
    Markdown (`rules`) and as written in the game's docstring (`rules_source`).
    """
    from boardlab.markup import rst_to_markdown

    with _edge():
        loaded = resolve(game, _options(option), variant=variant)
        rules_markdown = rst_to_markdown(loaded.rules)
        if as_json:
            echo_json({**loaded.info(), "rules": rules_markdown,
                       "rules_source": loaded.rules})
            return
        from rich.console import Console
        from rich.markdown import Markdown
        from rich.text import Text

        console = Console()
        console.print(Text(f"{loaded.name}: {loaded.description}", style="bold"))
        if loaded.source:
            console.print(Text(f"source: {loaded.source}"))
        console.print(Text(f"players: {players_text(loaded)}"))
        if loaded.chance_players:
            console.print(Text("a random player's moves are drawn at random among its "
                               "legal moves; nobody chooses them"))
        if loaded.option_schema:
            from rich.table import Table

            table = Table(title="options", title_justify="left", show_lines=False)
            for column in ("option", "value", "allowed", "meaning"):
                table.add_column(column, overflow="fold")
            for o in loaded.option_schema:
                facts = [o.type.__name__, f"default {o.default!r}"]
                if o.choices is not None:
                    facts.append("one of " + ", ".join(repr(c) for c in o.choices))
                if o.minimum is not None:
                    facts.append(f">= {o.minimum}")
                if o.maximum is not None:
                    facts.append(f"<= {o.maximum}")
                table.add_row(Text(o.name), Text(repr(loaded.options[o.name])),
                              Text("; ".join(facts)), Text(o.help))
            console.print(table)
        else:
            console.print(Text("options: none"))
        console.print()
        console.print(Markdown(rules_markdown))


@app.command()
def perft(
    game: GameName,
    depth: Annotated[int, typer.Argument(min=0, max=MAX_PERFT_DEPTH, help="Plies to count.")],
    option: OptionList = None,
    variant: VariantOption = None,
    engine: EngineOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Count the leaves of the game tree at depths 1..DEPTH.

    Terminal positions are not expanded. Each depth's count is shown as soon as it is
    known, with a progress bar over the root moves on a terminal; Ctrl-C stops the
    count and keeps the depths already counted.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from boardlab.core.game import perft_by_depth

    with _edge():
        loaded = resolve(game, _options(option), variant=variant, engine=engine)
        console = Console()
        nodes: list[int] = []
        started = time.perf_counter()
        interrupted = False
        with progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("root moves"), TimeElapsedColumn()) as bar:
            task = bar.add_task("depth 1", total=None)
            counts = perft_by_depth(loaded.initial_state(), depth, progress=lambda done, total:
                                    bar.update(task, completed=done, total=total))
            try:
                for count in counts:
                    nodes.append(count)
                    if not as_json:
                        console.print(f"depth {len(nodes):>2}  {count:>18,}", highlight=False)
                    bar.update(task, description=f"depth {len(nodes) + 1}", completed=0)
            except KeyboardInterrupt:
                interrupted = True
        seconds = time.perf_counter() - started
        if as_json:
            echo_json({"game": loaded.name, "options": dict(loaded.options), "depth": depth,
                       "nodes": nodes, "complete": not interrupted,
                       "seconds": round(seconds, 6)})
        else:
            total = sum(nodes)
            rate = f", {total / seconds:,.0f} nodes/s" if seconds > 0 and total else ""
            console.print(f"perft {loaded.name}: {seconds:.3f} s{rate}", highlight=False)
        if interrupted:
            raise KeyboardInterrupt


def _ask_move(state: State, player: str) -> Any:
    """The human's legal move, or ``None`` on EOF or ``quit``."""
    while True:
        try:
            text = input(f"{player} to move> ")
        except EOFError:
            typer.echo("")
            return None
        text = text.strip()
        if not text:
            continue
        if text.lower() in QUIT_WORDS:
            return None
        if text.lower() in HELP_WORDS:
            typer.echo("legal moves: " + " ".join(m.notation for m in state.legal_moves()))
            continue
        try:
            return state.parse_move(text)
        except BoardlabError as e:
            typer.echo(" ".join(str(e).splitlines()))


@app.command()
def play(
    game: GameName,
    player1: Annotated[str, typer.Option(
        help="human or a bot kind (random, alphabeta, mcts, exact).")] = HUMAN,
    player2: Annotated[str, typer.Option(
        help="human or a bot kind; also plays seats 3 and up.")] = "mcts",
    option: OptionList = None,
    variant: VariantOption = None,
    engine: EngineOption = None,
    seed: SeedOption = None,
    depth: DepthOption = None,
    seconds: TimeOption = None,
    iterations: IterationsOption = None,
    workers: WorkersOption = None,
) -> None:
    """Play a game in the terminal, humans against bots or each other.

    Humans type moves in the game's notation, `?` for the legal moves and `quit` to stop.
    PLAYER1 and PLAYER2 are the first real players: a random player (a die) is nobody's
    seat, its moves drawn at random (seeded by --seed).
    """
    import random

    from boardlab.ai.bots import draw_move

    with _edge():
        loaded = resolve(game, _options(option), variant=variant, engine=engine)
        from boardlab.ai.bots import bot_names

        chance = loaded.chance_players
        seats = [p for p in range(loaded.num_players) if p not in chance]
        kinds = dict(zip(seats, [player1] + [player2] * (len(seats) - 1), strict=True))
        for kind in kinds.values():
            if kind != HUMAN and kind not in bot_names():
                raise BotError(f"unknown player {kind!r}; use {HUMAN} or a bot: "
                               f"{', '.join(bot_names())}")
        bots = _make_bots({seat: kind for seat, kind in kinds.items() if kind != HUMAN},
                          seed, depth, seconds, iterations, workers)
        players = [bots.get(seat) for seat in range(loaded.num_players)]
        dice = random.Random(None if seed is None else f"chance:{seed}")
        names_ = loaded.player_names
        line = ", ".join(f"{names_[i]}: " + ("at random" if i in chance else
                                             HUMAN if b is None else b.name)
                         for i, b in enumerate(players))
        typer.echo(f"{loaded.name} -- {line}")
        state = loaded.initial_state()
        typer.echo(state.render())
        while not state.is_terminal():
            player = state.to_move
            bot = players[player]
            if player in chance:
                move = draw_move(state, dice)
                typer.echo(f"{names_[player]} (at random) plays {move.notation}")
            elif bot is None:
                try:
                    move = _ask_move(state, names_[player])
                except KeyboardInterrupt:
                    move = None
                if move is None:
                    typer.echo("game abandoned")
                    return
            else:
                with working(f"{names_[player]} ({bot.name}) is thinking"):
                    move = bot.choose(state)
                typer.echo(f"{names_[player]} ({bot.name}) plays {move.notation}")
            state = state.play(move)
            typer.echo(state.render())
        typer.echo(describe_outcome(loaded, state.returns()))


def _split_moves(text: str) -> list[str]:
    return [m for m in re.split(r"[\s,;]+", text) if m]


@app.command()
def replay(
    game: GameName,
    moves: Annotated[str, typer.Option(
        help="The moves, separated by spaces, commas or semicolons.")] = "",
    position: Annotated[str | None, typer.Option(
        help="Start from this position (the game's text form) instead of the initial one.")
    ] = None,
    option: OptionList = None,
    variant: VariantOption = None,
    engine: EngineOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Play a list of moves and show the position reached.

    Shows the final position, whose turn it is, the legal moves and the outcome.
    """
    with _edge():
        loaded = resolve(game, _options(option), variant=variant, engine=engine)
        start = loaded.initial_state() if position is None else loaded.parse_state(position)
        state = start.play_all(_split_moves(moves))
        outcome = state.outcome()
        legal = [m.notation for m in state.legal_moves()]
        if as_json:
            data: dict[str, Any] = {
                "game": loaded.name, "position": str(state),
                "to_move": None if outcome is not None else state.to_move,
                "legal_moves": legal, "terminal": outcome is not None,
                "chance": sorted(loaded.chance_players)}
            if outcome is not None:
                data["returns"] = [_number(r) for r in outcome]
            echo_json(data)
            return
        typer.echo(f"position: {state}")
        typer.echo(state.render())
        if outcome is None:
            mover = loaded.player_names[state.to_move]
            if state.to_move in loaded.chance_players:
                mover += " (random: one of its legal moves is drawn)"
            typer.echo(f"to move: {mover}")
            typer.echo(f"legal moves: {' '.join(legal)}")
            typer.echo("outcome: game in progress")
        else:
            typer.echo("to move: nobody, the game is over")
            typer.echo(f"outcome: {describe_outcome(loaded, outcome)}")


def _arena_json(result: ArenaResult) -> dict[str, Any]:
    low, high = result.interval
    return {"game": result.game, "bot1": result.bot1, "bot2": result.bot2,
            "games": len(result.games), "wins": result.wins, "draws": result.draws,
            "losses": result.losses, "score": _number(result.score),
            "points": _number(result.points),
            "score_rate": result.score_rate, "interval": [low, high],
            "interval_method": "wilson"}


@app.command()
def arena(
    game: GameName,
    bot1: Annotated[str, typer.Argument(help="A bot kind: random, alphabeta, mcts or exact.")],
    bot2: Annotated[str, typer.Argument(help="A bot kind: random, alphabeta, mcts or exact.")],
    games_: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                                        help="Games to play.")] = 10,
    option: OptionList = None,
    variant: VariantOption = None,
    engine: EngineOption = None,
    seed: SeedOption = None,
    depth: DepthOption = None,
    seconds: TimeOption = None,
    iterations: IterationsOption = None,
    workers: WorkersOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Play N games between two bots and report BOT1's results.

    Seats alternate between games; a random player's moves (a die's) are drawn at random,
    seeded by --seed. Prints BOT1's wins, draws, losses and score with
    its 95% (Wilson) interval; a terminal shows the games played and the score so far.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from boardlab.ai.arena import arena as run_arena

    with _edge():
        loaded = resolve(game, _options(option), variant=variant, engine=engine)
        bots = _make_bots({0: bot1, 1: bot2}, seed, depth, seconds, iterations, workers)
        first, second = bots[0], bots[1]
        tally = {"win": 0, "draw": 0, "loss": 0}

        def played(bar: Any, task: Any, record: Any) -> None:
            tally[record.result] += 1
            bar.update(task, advance=1, score="{win}/{draw}/{loss}".format(**tally))

        with progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("games, won/drawn/lost {task.fields[score]}"),
                      TimeElapsedColumn()) as bar:
            task = bar.add_task(f"{first.name} vs {second.name}", total=games_,
                                score="0/0/0")
            result = run_arena(loaded, first, second, games_,
                               on_game=lambda _i, record: played(bar, task, record), seed=seed)
        if as_json:
            echo_json(_arena_json(result))
            return
        low, high = result.interval
        typer.echo(f"{result.game}: {result.bot1} vs {result.bot2}, {len(result.games)} games, "
                   "alternating who moves first")
        typer.echo(f"{result.bot1}: {result.wins} wins, {result.draws} draws, "
                   f"{result.losses} losses")
        typer.echo(f"score {float(result.score):g}/{len(result.games)} = "
                   f"{result.score_rate:.3f}, 95% interval [{low:.3f}, {high:.3f}] (Wilson)")
        if result.points != result.score:
            typer.echo(f"points as {result.game} scores them: {result.bot1} {result.points} "
                       f"in {len(result.games)} games")


@app.command()
def solve(
    game: GameName,
    option: OptionList = None,
    variant: VariantOption = None,
    engine: EngineOption = None,
    moves: Annotated[str, typer.Option(
        help="Solve the position after these moves (spaces, commas or semicolons).")] = "",
    position: Annotated[str | None, typer.Option(
        help="Start from this position (the game's text form).")] = None,
    all_moves: Annotated[bool, typer.Option(
        "--all-moves", help="Give the exact value of every legal move, not only the best.")
    ] = False,
    table_bits: Annotated[int | None, typer.Option(
        min=10, max=MAX_TABLE_BITS,
        help="quantum-tic-tac-toe: transposition table of 2**BITS slots (20 bytes each; "
             "default 24).")] = None,
    seconds: Annotated[float | None, typer.Option(
        "--time", min=MIN_SECONDS, max=MAX_SECONDS,
        help="Other games: give up after this many seconds.")] = None,
    max_nodes: Annotated[int | None, typer.Option(
        "--max-nodes", min=1, max=MAX_NODES,
        help="Other games: give up after searching this many positions (default "
             "20,000,000).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Compute the exact value of a position under perfect play.

    The value is the first player's points minus the second's (with a random player, a
    die, the two real players' expected margin). quantum-tic-tac-toe has a compiled
    solver for every option; other games use a full alpha-beta search (an expectiminimax
    one with a random player) within a node budget. A terminal shows the root moves done,
    positions searched and the rate.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from boardlab.ai.exact import solve_position

    with _edge():
        loaded = resolve(game, _options(option), variant=variant, engine=engine)
        start = loaded.initial_state() if position is None else loaded.parse_state(position)
        state = start.play_all(_split_moves(moves))
        began = time.perf_counter()

        def update(bar: Any, task: Any, done: int, total: int, nodes: int) -> None:
            elapsed = time.perf_counter() - began
            rate = nodes / elapsed if elapsed > 0 else 0.0
            bar.update(task, completed=done, total=total,
                       searched=f"{nodes:,} positions, {rate:,.0f}/s")

        with progress(TextColumn("solving"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("root moves, {task.fields[searched]}"),
                      TimeElapsedColumn()) as bar:
            task = bar.add_task("moves", total=None, searched="0 positions")
            report = solve_position(
                state, all_moves=all_moves, table_bits=table_bits, seconds=seconds,
                max_nodes=max_nodes,
                progress=lambda done, total, nodes: update(bar, task, done, total, nodes))
        rate = report.nodes / report.seconds if report.seconds > 0 else 0.0
        if as_json:
            echo_json({"game": loaded.name, "options": dict(loaded.options),
                       "position": str(state), "value": str(report.value),
                       "verdict": report.verdict,
                       "best_move": report.best.notation if report.best else None,
                       "moves": [{"move": m.notation, "value": str(v)}
                                 for m, v in report.moves] if all_moves else [],
                       "nodes": report.nodes, "seconds": round(report.seconds, 3)})
            return
        names_ = report.player_names
        typer.echo(f"{loaded.name} {' '.join(_split_moves(moves)) or str(state)}")
        typer.echo(f"value: {report.verdict} ({names_[0]} - {names_[1]} = {report.value})")
        if report.best is not None:
            typer.echo(f"best move: {report.best.notation}")
        if all_moves:
            from rich.console import Console
            from rich.table import Table
            from rich.text import Text

            table = Table(title="every move")
            table.add_column("move")
            table.add_column(f"value ({names_[0]} - {names_[1]})", justify="right")
            for move, value in report.moves:
                table.add_row(Text(move.notation), str(value))
            Console().print(table)
        typer.echo(f"nodes: {report.nodes:,}; time: {report.seconds:.2f} s"
                   + (f" ({rate:,.0f} nodes/s)" if rate else ""))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535,
                                      help="Port to listen on (0: any free port).")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL", envvar="BOARDLAB_DB",
        help="Database: an SQLAlchemy URL (postgresql+psycopg://USER:PASSWORD@HOST/DB) or "
             "an SQLite file; default $BOARDLAB_DB, else boardlab.db in the data folder.")
    ] = None,
    data: Annotated[str | None, typer.Option(
        "--data", metavar="DIR",
        help="Data folder of the default SQLite database (default $BOARDLAB_DATA, else "
             "~/.local/share/boardlab).")] = None,
    games: Annotated[str | None, typer.Option(
        "--games", metavar="DIR",
        help="A folder of Zillions rule files (.zrf, searched below) to offer in the lobby "
             "beside the built-in games (default: games/ in the data folder, if any).")
    ] = None,
    public_url: Annotated[str | None, typer.Option(
        "--public-url", metavar="URL",
        help="The address players reach the server at (https://boards.example.org), "
             "written into pages that need an absolute one, such as the Triplex "
             "leaderboard's; default: relative addresses only. The request's Host header "
             "is never used.")] = None,
    cors_origin: Annotated[list[str] | None, typer.Option(
        "--cors-origin", metavar="ORIGIN",
        help="An origin (https://a.example) whose pages may call the API, e.g. where an "
             "exported Triplex file is hosted; `null` allows files opened from disk. "
             "Repeat for several; default none.")] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        "--trusted-proxy", metavar="IP",
        help="A reverse proxy's address or network (10.0.0.2, 10.0.0.0/8) whose "
             "X-Forwarded-For and X-Forwarded-Proto are believed, so rate limits count "
             "the real clients. Repeat for several; default none: the connecting address "
             "is the client.")] = None,
    bot_workers: Annotated[int, typer.Option(
        "--bot-workers", min=0, max=64,
        help="Worker processes the bots think in, each move stopped at its time budget "
             "plus 2 s (a random legal move is played instead); 0 thinks in the "
             "server's own threads, without hard limits.")] = 2,
    bot_memory: Annotated[int, typer.Option(
        "--bot-memory", metavar="MIB", min=256, max=1 << 20,
        help="The memory cap of each bot worker process, in MiB.")] = 1024,
) -> None:
    """Run the web app: every game in the browser, with the JSON API under /api.

    Prints the URL to open; the database is created and migrated on the first start.
    The rule files of the games folder are read in the background and listed as they
    load; a file that does not load is listed with its reason. Request bodies over
    1 MB are refused, and every answer carries security headers (a content security
    policy of the server's own files, no framing, no sniffing, no referrer).

    Matches are played live: a match's seats are held by secret tokens (each browser
    keeps one), every seat and spectator follows it over a WebSocket, and the server
    moves the bots itself, in worker processes with limits on time and memory.
    """
    from boardlab.web.app import serve as run_server

    with _edge():
        run_server(host, port, db, data, games_dir=games, public_url=public_url,
                   cors_origins=cors_origin or (), trusted_proxies=trusted_proxy or (),
                   bot_workers=bot_workers, bot_memory_mb=bot_memory, echo=typer.echo)


if __name__ == "__main__":
    main()
