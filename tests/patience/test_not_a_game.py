"""verify, replay and analyse name what a file kcsolve wrote is when it is not a game record, and what reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
from clitools import assert_bad_input, run, write

DECK = "a deck, not a game record: kcsolve solve or play takes it"
CORNER = "a Kings Corner record: kcsolve corner verify reads it"


def output(*args: str) -> str:
    """What a kcsolve command writes to stdout; it must succeed."""
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Files other commands write, by what they hold."""
    folder = tmp_path_factory.mktemp("written")
    sim = output("corner", "sim", "--games", "2", "--format", "json")
    texts = {
        "deck text": output("deal", "--seed", "1"),
        "deck json": output("deal", "--seed", "1", "--format", "json"),
        "deck list": '["' + '", "'.join(output("deal", "--seed", "1").split("\n", 1)[1].split()) + '"]',
        "daily": output("daily", "--date", "2026-01-01", "--format", "json"),
        "corner hand": sim.splitlines()[0],
        "corner lines": sim,
        "corner game": output("corner", "sim", "--games", "1", "--match", "--format", "json").splitlines()[0],
        "corner position": output("corner", "deal", "--seed", "2", "--format", "json"),
        "solve lines": output("solve", "--seed", "0", "--count", "2", "--format", "json"),
    }
    return {name: write(folder, text, name.replace(" ", "-") + ".txt") for name, text in texts.items()}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("deck text", DECK),
        ("deck json", DECK),
        ("deck list", DECK),
        ("daily", "a daily deal, not a game record (its 'solution' is one)"),
        ("corner hand", CORNER),
        ("corner game", CORNER),
        ("corner lines", f"line 1 is {CORNER}"),
        ("corner position", "a Kings Corner position: kcsolve corner turn reads it"),
        ("solve lines", "records one a line: give one record, or a JSON list of them"),
    ],
)
@pytest.mark.parametrize("command", ["verify", "replay", "analyse"])
def test_what_is_not_a_game_record_is_named(files: dict[str, str], command: str, name: str, message: str) -> None:
    assert_bad_input(run(command, files[name]), f"{files[name]!r}: {message}")


def test_a_saved_corner_game_points_to_corner_play(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    run("corner", "play", "--seed", "3", input=f"save {saved}\nquit\n")
    message = f"{str(saved)!r}: a saved Kings Corner game: kcsolve corner play resumes it"
    assert_bad_input(run("verify", str(saved)), message)


@pytest.mark.parametrize(
    "record",
    [
        {"deck": "AS 2S"},  # a malformed deck is the record's fault, as before
        {"deck": [1, 2]},
    ],
)
def test_a_malformed_deck_is_still_named_as_such(tmp_path: Path, record: dict) -> None:
    path = write(tmp_path, record)
    assert_bad_input(run("verify", path), f"{path!r}: 'deck' must be a list of card strings")


def test_a_deck_with_moves_or_a_result_is_a_record(tmp_path: Path) -> None:
    deck = run("deal", "--seed", "1", "--format", "json").stdout.strip()[:-1]
    result = run("verify", write(tmp_path, deck + ', "moves": []}'))
    assert result.exit_code == 1 and result.stdout.startswith("unfinished: card 1 ")
