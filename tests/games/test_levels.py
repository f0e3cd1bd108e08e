"""The bot's eight levels (games/ai/levels.py): settings that grow stronger level by level, the old levels
kept as they were, the level nearest a rating, and weak levels that err like people (they overlook an
immediate win sometimes, but play sensible moves, never random ones)."""

from __future__ import annotations

import argparse
import builtins
import contextlib
import itertools
import json
import math
import random
import sys
from dataclasses import replace
from pathlib import Path
from statistics import mean
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games
from games.ai import analyse
from games.ai.levels import (
    CAP_SECONDS,
    DEFAULT_LADDER,
    LEVEL_IDS,
    NEW_PLAYER_LEVEL,
    OLD_LEVEL_IDS,
    SPACING,
    Level,
    LevelSettings,
    calibrated,
    is_level,
    level_rating,
    level_settings,
    nearest_level,
    nominal_rating,
    offered_level,
)
from games.plugins import Levels, Rung
from games.tilingking.ai import Features

GAMES = (*games.GAME_IDS, "race")
"""Every registered game, plugins included, and an id no plugin registers (the default ladder)."""


@pytest.mark.parametrize("game", GAMES)
def test_each_level_searches_more_and_errs_less_than_the_one_below(game: str) -> None:
    ladder = [level_settings(level, game) for level in LEVEL_IDS]
    budgets = [s.iterations for s in ladder]
    assert all(b is not None for b in budgets)
    assert budgets == sorted(budgets) and len(set(budgets)) == 8, budgets
    overlook = [s.overlook for s in ladder]
    noise = [s.noise for s in ladder]
    assert overlook == sorted(overlook, reverse=True) and overlook[0] > 0.5 and overlook[-1] == 0
    assert noise == sorted(noise, reverse=True) and noise[0] > 0 and noise[-1] == 0
    for s in ladder:  # every level uses the full knowledge, picks by search, and is capped in time
        assert not s.weak and s.temperature == 0 and s.seconds == CAP_SECONDS < 3.0


def test_the_old_levels_keep_their_time_based_settings() -> None:
    assert OLD_LEVEL_IDS == ("easy", "medium", "hard")
    assert level_settings("easy", "paint") == LevelSettings(seconds=0.2, weak=True, temperature=1.0)
    assert level_settings("medium", "paint") == LevelSettings(seconds=1.0, weak=False, temperature=0.0)
    assert level_settings(Level.HARD, "tilingking") == LevelSettings(seconds=3.0, weak=False, temperature=0.0)
    assert all(is_level(level) for level in LEVEL_IDS + OLD_LEVEL_IDS)


@pytest.mark.parametrize("bad", ["0", "9", "godlike", "", "Hard"])
def test_an_unknown_level_is_refused(bad: str) -> None:
    assert not is_level(bad)
    with pytest.raises(ValueError, match="unknown level"):
        level_settings(bad, "paint")
    rules = games.get("paint")
    with pytest.raises(ValueError, match="unknown level"):
        analyse(rules, rules.new(2, {}, 0), level=bad, iterations=4)


def test_a_new_player_gets_level_2() -> None:
    assert NEW_PLAYER_LEVEL == "2"
    for game in GAMES:
        assert nearest_level(game, None) == "2"


@given(st.sampled_from(GAMES), st.integers(0, 4000))
def test_the_nearest_level_is_nearest_to_the_rating(game: str, rating: int) -> None:
    chosen = nearest_level(game, rating)
    gap = abs(level_rating(game, chosen) - rating)
    assert all(gap <= abs(level_rating(game, other) - rating) for other in LEVEL_IDS)


@pytest.mark.parametrize("game", GAMES)
def test_a_level_s_own_rating_picks_that_level(game: str) -> None:
    for level in LEVEL_IDS:
        if sum(level_rating(game, other) == level_rating(game, level) for other in LEVEL_IDS) == 1:
            assert nearest_level(game, level_rating(game, level)) == level


def test_ratings_come_from_the_calibration_file_else_the_nominal_ladder() -> None:
    shipped = {}
    for game, plugin in games.PLUGINS.items():
        calibration = plugin.levels.calibration if plugin.levels is not None else None
        if calibration is not None and calibration.exists():
            shipped[game] = json.loads(calibration.read_text(encoding="utf-8"))["ratings"]
    assert {"paint", "paintscape", "tilingking"} <= set(shipped), "the built-in games ship their calibration"
    assert calibrated() == {g: {k: int(v) for k, v in levels.items()} for g, levels in shipped.items()}
    for game, levels in shipped.items():
        assert levels["2"] == 1500, "the calibration anchors level 2 at what a new player shows"
        for level in OLD_LEVEL_IDS:
            assert level_rating(game, level) == levels.get(level, nominal_rating(level))
        ladder = [level_rating(game, level) for level in LEVEL_IDS]
        for level, rating in zip(LEVEL_IDS, ladder, strict=True):
            if level in levels:
                assert rating == levels[level]
        measured = [i for i, level in enumerate(LEVEL_IDS) if level in levels]
        top = max(measured)
        # A level not measured yet sits SPACING above the strongest measured one, per level.
        assert ladder[top:] == [ladder[top] + SPACING * n for n in range(8 - top)]
    assert "race" not in shipped
    assert [level_rating("race", level) for level in LEVEL_IDS] == [1325 + 175 * n for n in range(8)]


# ------------------------------------------------------------------------------------------ erring

WIN_AT_A4 = (
    "3CWccW..YBWWyY..Y.BBB..11B...y..3..Y.Wyc3BCy.ByWYCWcBW.WCc.WB... "
    "phase=play turn=black black=0 collected=.B.BW swapped=- ply=62"
)
"""A Paintscape position (from seeded self-play) where Black, to move, wins at once with a4, one of 14
placements."""


def winning_picks(level: str, seeds: int = 40) -> tuple[int, list[Any]]:
    """How often `level` plays the immediate win in `WIN_AT_A4` over `seeds` seeds, and its reports."""
    rules = games.get("paintscape")
    state = rules.load({"position": WIN_AT_A4})
    reports = [analyse(rules, state, level=level, seed=seed) for seed in range(seeds)]
    return sum(rules.notation(state, r.move) == "a4" for r in reports), reports


def test_a_beginner_sometimes_overlooks_an_immediate_win_and_stronger_levels_less_often() -> None:
    rules = games.get("paintscape")
    state = rules.load({"position": WIN_AT_A4})
    moves = list(rules.legal_moves(state))
    assert len(moves) == 14
    assert [m for m in moves if (o := rules.outcome(rules.apply(state, m))) and o.winners == (0,)] == [
        m for m in moves if rules.notation(state, m) == "a4"
    ]
    hits = {level: winning_picks(level)[0] for level in ("1", "3", "5", "8")}
    assert hits["8"] == 40, hits
    assert 0 < hits["1"] < 40, f"level 1 should sometimes see the win and sometimes not: {hits}"
    assert hits["1"] < hits["3"] < hits["5"] <= hits["8"], hits


def test_a_beginner_that_misses_the_win_still_plays_a_move_it_searched() -> None:
    rules = games.get("paintscape")
    state = rules.load({"position": WIN_AT_A4})
    _, reports = winning_picks("1")
    missed = [r for r in reports if rules.notation(state, r.move) != "a4"]
    assert missed
    for report in missed:
        assert report.reason == "search" and report.move in [s.move for s in report.moves]


def test_weak_levels_play_sensible_tilingking_placements_not_random_ones() -> None:
    """On a TilingKing position with hundreds of placements, level 1 never plays one of the worst quarter by
    the game's placement heuristic and averages well above a random placement; level 8 plays better still."""
    rules = games.get("tilingking")
    state = rules.new(2, {}, 4)
    for ply in range(4):
        state = rules.apply(state, analyse(rules, state, level="4", seed=ply).move)
    placements = [m for m in rules.legal_moves(state) if m.action == "place"]
    assert len(placements) > 300
    features = Features(rules, state, state.turn)
    scores = sorted(features.score(m.mask) for m in placements)

    def percentile(move: Any) -> float:
        return sum(1 for s in scores if s < features.score(move.mask)) / len(scores)

    random_mean = mean(percentile(m) for m in placements)
    by_level = {
        level: [percentile(analyse(rules, state, level=level, seed=seed).move) for seed in range(20)]
        for level in ("1", "8")
    }
    quarter = sum(1 for s in scores if s < scores[len(scores) // 4]) / len(scores)
    assert min(by_level["1"]) >= quarter
    assert mean(by_level["1"]) > random_mean + 0.15
    assert mean(by_level["8"]) > mean(by_level["1"])


def _calibration() -> Any:
    bench = str(Path(__file__).resolve().parents[2] / "bench")
    sys.path.insert(0, bench)
    try:
        import calibrate_levels
    finally:
        sys.path.remove(bench)
    return calibrate_levels


def test_respacing_keeps_an_evenly_spaced_ladder_and_moves_levels_towards_even_steps() -> None:
    """`calibrate_levels.py respace`: a ladder whose calibrated steps are already even stays as it is; where
    a step is flat the levels above move down the curve (smaller budgets) to reach evenly spaced ratings."""
    calibration = _calibration()
    ladder = [level_settings(level, "race") for level in LEVEL_IDS]  # the default ladder
    even = {level: 1000 + 100 * n for n, level in enumerate(LEVEL_IDS)}
    assert [(r.iterations, r.overlook, r.noise) for r in calibration.respaced("race", even)] == [
        (s.iterations, s.overlook, s.noise) for s in ladder
    ]
    uneven = dict(even, **{"2": 1010, "3": 1020})  # levels 1-3 nearly level, the rest as before
    rungs = calibration.respaced("race", uneven)
    assert (rungs[0].iterations, rungs[-1].iterations) == (ladder[0].iterations, ladder[-1].iterations)
    assert all(a.iterations <= b.iterations for a, b in itertools.pairwise(rungs))
    assert rungs[1].iterations > ladder[1].iterations, "level 2 moves up the flat start, towards level 3"


def test_respacing_under_a_new_top_level_spaces_the_ladder_up_to_it() -> None:
    """`respace --top`: a new level 8 (full strength at a bigger budget, expected at an old level's rating)
    extends the curve past the measured level 8; level 8 becomes the new top, the levels between are spaced
    evenly up to its rating, and the old level 8's settings land where the curve puts its rating."""
    calibration = _calibration()
    ladder = [level_settings(level, "race") for level in LEVEL_IDS]
    even = {level: 1000 + 100 * n for n, level in enumerate(LEVEL_IDS)}  # old level 8 at 1700
    top = calibration.Rung(8192, 0.0, 0.0)
    rungs = calibration.respaced("race", even, (top, 2400))  # steps of 200: the old level 8 sits at level 4.5
    assert rungs[0] == calibration.Rung(ladder[0].iterations, ladder[0].overlook, ladder[0].noise)
    assert rungs[-1] == top
    assert all(a.iterations < b.iterations for a, b in itertools.pairwise(rungs))
    old_odd_levels = [ladder[2 * k].iterations for k in range(4)]  # the old levels 1, 3, 5, 7
    assert [r.iterations for r in rungs[:4]] == old_odd_levels
    assert rungs[3].iterations < ladder[7].iterations < rungs[4].iterations
    assert calibration.parse_tops("paint=3200, tilingking=1500") == {"paint": 3200, "tilingking": 1500}


@pytest.mark.parametrize("game_id", GAMES)
def test_an_old_level_stands_for_the_one_of_the_eight_nearest_its_rating(game_id: str) -> None:
    """A lobby opened before the eight levels seats the bot at the level nearest the old level's rating."""
    for level in LEVEL_IDS:
        assert offered_level(game_id, level) == level
    for old in OLD_LEVEL_IDS:
        new = offered_level(game_id, old)
        assert new in LEVEL_IDS
        gap = abs(level_rating(game_id, new) - level_rating(game_id, old))
        assert all(
            gap <= abs(level_rating(game_id, other) - level_rating(game_id, old)) for other in LEVEL_IDS
        )


def test_a_calibration_game_plays_each_level_s_whole_budget_however_slow_the_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`calibrate_levels.py play` leaves out the bot's wall-clock cap: with a cap so small that every capped
    search stops at once (as on a very busy machine), a calibration game is the same game, move for move."""
    calibration = _calibration()
    job = calibration.Job("paintscape", "3", "4", 1)
    quiet = calibration.play(job)
    monkeypatch.setattr("games.ai.levels.CAP_SECONDS", 1e-9)
    assert level_settings("4", "paintscape").seconds == 1e-9, "the bot's own searches are capped now"
    busy = calibration.play(job)
    assert (busy["score_a"], busy["plies"]) == (quiet["score_a"], quiet["plies"])
    assert {level: len(moves) for level, moves in busy["cpu_ms"].items()} == {
        level: len(moves) for level, moves in quiet["cpu_ms"].items()
    }


def test_a_new_opening_book_makes_only_the_games_of_the_level_that_plays_it_stale(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A calibration result is current while the code its levels played with is: Paint's book counts for the
    games level 8 (the only level with a book) took part in, and not for the others, so a new book asks for
    level 8's games again, not the whole ladder's."""
    calibration = _calibration()
    book = tmp_path / "book.json"
    monkeypatch.setattr("games.paint.ai.DATA_FILES", (str(book),))

    def keys() -> list[str]:
        calibration.code_version.cache_clear()
        pairs = (("6", "7"), ("7", "8"), ("medium", "8"))
        return [calibration.record_key("paint", a, b, 0) for a, b in pairs]

    book.write_text('{"positions": []}')
    before = keys()
    book.write_text('{"positions": [{"key": "another"}]}')
    after = keys()
    calibration.code_version.cache_clear()
    assert before[0] == after[0], "games without level 8 stay current"
    assert before[1] != after[1] and before[2] != after[2], "level 8's games are stale"


def test_respacing_from_every_game_pools_the_passes_and_steps_over_a_flat_stretch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`respace --from-games`: the games of two ladders (two passes) with a known strength curve that gains
    nothing from 64 to 256 iterations (it dips a little in between) pool into one fit by settings; the
    levels come out rising, levels 1 and 8 as they are, no two levels share the flat stretch, and their true
    strengths are about evenly spaced. Games played with other code are left out."""
    calibration = _calibration()
    version = "today0s0code"
    monkeypatch.setattr(calibration, "code_version", lambda game, with_data=True: version)  # no race rules

    def strength(iterations: float) -> float:  # 100 points a doubling, a dip from 64 to 256 iterations
        doublings = math.log2(iterations)
        return 100 * (min(doublings, 6) + max(doublings - 8, 0)) - 40 * max(0.0, 1 - abs(doublings - 7))

    first = [(8, 0.85, 0.35), (16, 0.7, 0.25), (32, 0.55, 0.17), (64, 0.38, 0.11)]
    second = [(128, 0.24, 0.07), (256, 0.13, 0.04), (512, 0.05, 0.02), (1024, 0.0, 0.0)]
    between = [(11, 0.78, 0.3), (23, 0.62, 0.21), (45, 0.46, 0.14), (90, 0.31, 0.09), (181, 0.18, 0.05),
               (362, 0.09, 0.03), (724, 0.02, 0.01)]  # fmt: skip
    ladders = [first + second, [first[0], *between, second[-1]]]  # two passes share levels 1 and 8
    rng = random.Random(5)
    records = []
    for ladder in ladders:
        names = [f"{it} it, overlook {o:.0%}, noise {n:g}" for it, o, n in ladder]
        for (a, name_a), (b, name_b) in itertools.pairwise(zip(ladder, names, strict=True)):
            expected = 1 / (1 + 10 ** ((strength(b[0]) - strength(a[0])) / 400))
            for k in range(120):
                score = 1.0 if rng.random() < expected else 0.0
                key = f"race:x:y:{k}:{name_a}:{name_b}:{version}"
                records.append({"key": key, "game": "race", "a": "x", "b": "y", "k": k, "score_a": score})
    stale = dict(records[0], key=records[0]["key"].replace(version, "0ther0code000"), score_a=1.0)
    assert not calibration.played_with_today_s_code(stale)
    rungs = calibration.respaced_from_games("race", [*records, stale])
    ladder = [level_settings(level, "race") for level in LEVEL_IDS]
    assert (rungs[0].iterations, rungs[-1].iterations) == (ladder[0].iterations, ladder[-1].iterations)
    assert all(a.iterations < b.iterations for a, b in itertools.pairwise(rungs))
    assert sum(70 < r.iterations < 240 for r in rungs) <= 1, [r.iterations for r in rungs]
    steps = [strength(b.iterations) - strength(a.iterations) for a, b in itertools.pairwise(rungs)]
    assert max(steps) < 2.2 * (sum(steps) / len(steps)), steps


def test_the_respacing_curve_rises_with_the_budget_pooling_a_stretch_that_measured_weaker() -> None:
    """A budget that measured weaker than a smaller one is pooled with it (weighted by games) into one point
    at their geometric mean budget: the curve the levels are placed on always rises."""
    calibration = _calibration()
    rung = calibration.Rung
    measured = [
        (rung(64, 0.3, 0.1), 200.0, 40),
        (rung(8, 0.9, 0.3), 0.0, 40),
        (rung(16, 0.7, 0.2), 100.0, 120),
        (rung(32, 0.5, 0.1), 80.0, 40),  # weaker than 16 iterations: noise or a flat stretch
    ]
    points, curve = calibration.rising(measured)
    assert curve == [0.0, 95.0, 200.0]
    assert points == [rung(8, 0.9, 0.3), rung(19, 0.65, 0.175), rung(64, 0.3, 0.1)]
    assert calibration.settings_at(points, curve, 147.5) == rung(35, 0.475, 0.138)


def test_the_calibration_page_says_which_pairs_are_consistent_with_evenly_spaced_levels() -> None:
    """The page compares each neighbouring pair's score with what evenly spaced levels (between the fitted
    levels 1 and 8) would expect, and says in how many pairs' 95% intervals that lies."""
    calibration = _calibration()
    ratings = {level: 1000 + 100 * n for n, level in enumerate(LEVEL_IDS)}
    assert round(calibration.expected_score(1000, 1100), 3) == 0.36

    def page(wins_of_the_first_pair: int) -> str:
        records = []
        for n, (a, b) in enumerate(itertools.pairwise(LEVEL_IDS)):
            wins = wins_of_the_first_pair if n == 0 else 14  # 14 of 40: 35%, as 100 points expect
            for k in range(40):
                records.append({"a": a, "b": b, "score_a": 1.0 if k < wins else 0.0, "cpu_ms": {}})
        return calibration.table("race", records, ratings, {}, "results.jsonl")

    assert "100 points apart" in page(14)
    assert "inside 7 of the 7 neighbouring pairs' 95% intervals" in page(14)
    assert "inside 6 of the 7 neighbouring pairs' 95% intervals" in page(0)


def test_rekeying_keeps_the_games_today_s_faster_code_plays_alike_and_only_those(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`calibrate_levels.py rekey`: after a change of the AI's code, the eight levels' games that today's code
    plays again move for move (checked by replaying the shortest game of each pair) are current again; an
    old, time-based level's game stays stale (faster code gives it more iterations), so does a record that a
    later one of the same game superseded, and so do the games of a pair (of one code version) whose replay
    differs from its record."""
    calibration = _calibration()
    monkeypatch.setattr(calibration, "code_version", lambda game, with_data=True: "yesterday000")
    jobs = [calibration.Job("paintscape", a, b, k) for a, b in (("1", "2"), ("3", "4")) for k in range(3)]
    records = [calibration.play(job) for job in jobs]
    old_level = dict(records[0], a="easy", key=calibration.record_key("paintscape", "easy", "2", 0))
    superseded = dict(records[1], key=records[1]["key"].replace("yesterday000", "lastweek0000"))
    records = [superseded, *records, old_level]  # game 1-2 k=1 was played again yesterday
    monkeypatch.setattr(calibration, "code_version", lambda game, with_data=True: "today0000000")
    assert not calibration.current(records), "every game is stale by its code version"

    rekeyed, changed = calibration.rekeyed("paintscape", records, check_per_pair=1)
    assert changed == 6
    assert len(calibration.current(rekeyed)) == 6 and old_level in rekeyed and superseded in rekeyed
    assert {r["key"].rsplit(":", 1)[1] for r in rekeyed if r["a"] != "easy" and r is not superseded} == {
        "today0000000"
    }

    shortest = min((r for r in records if r["a"] == "3"), key=lambda r: (r["plies"], r["k"]))
    tampered = [
        dict(r, score_a=r["score_a"] + 0.25) if r is shortest else r for r in records
    ]  # not its result
    partly, changed = calibration.rekeyed("paintscape", tampered, check_per_pair=1)
    assert changed == 3, "the pair whose replay differs stays stale, the other is re-keyed"
    assert {(r["a"], r["b"]) for r in calibration.current(partly)} == {("1", "2")}


def test_the_calibration_page_shows_thinking_times_measured_with_today_s_settings_and_code_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`think` keeps, for each game it measured, the machine it ran on, and for each level the settings and
    code measured; the page shows a level's wall times only while both are today's (faster code makes old
    times wrong), and a run for one game leaves the others' machine as it was."""
    calibration = _calibration()
    monkeypatch.setattr(calibration, "code_version", lambda game, with_data=True: "today0000000")
    out = tmp_path / "think.json"
    out.write_text(json.dumps({"_machine": "the old box", "paintscape": {}}))
    monkeypatch.setattr(
        calibration,
        "think_job",
        lambda task: {"game": task[0], "level": task[1], "cpu_ms": [100, 200], "wall_ms": [150, 250]},
    )
    monkeypatch.setattr(calibration, "ProcessPoolExecutor", lambda jobs: contextlib.nullcontext(builtins))
    args = argparse.Namespace(game="race", levels="1,2", games=1, jobs=1, out=str(out), machine="here")
    calibration.run_think(args)
    think = json.loads(out.read_text())
    assert think["_machine"]["race"].startswith("here; self-play, 1 games")
    assert think["_machine"]["paintscape"] == "the old box"
    assert think["race"]["1"]["code"] == "today0000000"

    ratings = {"1": 1400, "2": 1500}
    records = [{"a": "1", "b": "2", "score_a": 1.0, "cpu_ms": {"1": [100], "2": [100]}}]
    page = calibration.table("race", records, ratings, think, "results.jsonl")
    assert "(here; self-play" in page and "| 0.25 / 0.25 s |" in page
    monkeypatch.setattr(calibration, "code_version", lambda game, with_data=True: "faster000000")
    page = calibration.table("race", records, ratings, think, "results.jsonl")
    assert "0.25 / 0.25 s" not in page, "times measured with other code are not shown"


def test_a_plugin_brings_its_own_ladder_and_calibration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`GamePlugin.levels`: a game's eight levels and the file of their ratings come from its plugin; a
    game without them plays the default ladder at nominal ratings."""
    calibration = tmp_path / "levels.json"
    calibration.write_text(json.dumps({"ratings": {"1": 1111, "2": 1500, "easy": 1400}}))
    ladder = tuple(Rung(10 * (n + 1), 0.5 - n / 16, 0.2 - n / 40) for n in range(8))
    game = "paint"
    monkeypatch.setitem(games.PLUGINS, game, replace(games.plugin(game), levels=Levels(ladder, calibration)))
    calibrated.cache_clear()
    try:
        assert [level_settings(level, game).iterations for level in LEVEL_IDS] == [
            10 * n for n in range(1, 9)
        ]
        assert level_rating(game, "1") == 1111 and level_rating(game, "easy") == 1400
        assert level_rating(game, "3") == 1500 + SPACING, "an unmeasured level is SPACING above the nearest"
        monkeypatch.setitem(games.PLUGINS, game, replace(games.plugin(game), levels=None))
        calibrated.cache_clear()
        assert [level_settings(level, game).iterations for level in LEVEL_IDS] == [
            rung.iterations for rung in DEFAULT_LADDER
        ]
        assert [level_rating(game, level) for level in LEVEL_IDS] == [nominal_rating(lv) for lv in LEVEL_IDS]
    finally:
        calibrated.cache_clear()


def test_a_ladder_has_eight_levels_each_searching_more() -> None:
    rungs = [Rung(2**n, 0.0, 0.0) for n in range(8)]
    Levels(tuple(rungs))
    with pytest.raises(ValueError, match="8 levels"):
        Levels(tuple(rungs[:7]))
    with pytest.raises(ValueError, match="searches more"):
        Levels(tuple(reversed(rungs)))
    assert (
        Levels(tuple(rungs)).ratings() == {} and Levels(tuple(rungs), Path("/no/such.json")).ratings() == {}
    )
