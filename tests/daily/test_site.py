"""`solve --format html`, `kcsolve site`: self-contained pages, the daily JSON, the feed, atomic writes, bad input."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from clitools import assert_bad_input, run, unwrapped

from kcsolve.cli.base import shorten
from kcsolve.patience.daily import offline, site
from kcsolve.patience.daily.calendar import candidate_seed, daily
from kcsolve.patience.daily.webpage import ARCHIVE_MODULES, MODULES, asset
from kcsolve.patience.players.honest import DIFFICULTY_IS, MEANING, in_words
from kcsolve.patience.record import judge, parse_record
from kcsolve.patience.rules import parse_rules

FIRST = "2027-03-01"
BASE = "https://example.org/kc/"
OFFLINE = sorted(offline.OFFLINE_FILES)  # the manifest, the service worker and the icons, at the site's root
GAMES = list(site.GAME_PAGES)  # the other game's page, Kings Corner


def page_data(page: str) -> dict:
    """The deal's JSON embedded in a page."""
    match = re.search(r'<script type="application/json" id="kc-data">(.*?)</script>', page, re.DOTALL)
    assert match, "no kc-data in the page"
    return json.loads(match.group(1))


def assert_self_contained(page: str, root: str | None = None) -> None:
    """Nothing in the page is fetched: no script or style sheet from elsewhere, no remote address at all; a page of
    a site (``root`` leading to the site's folder) links its manifest there and nothing else."""
    assert page.startswith("<!doctype html>")
    assert not re.search(r"<script[^>]*\ssrc=", page)
    assert "@import" not in page
    links = re.findall(r"<link [^>]*>", page)
    manifest = [f'<link rel="manifest" href="{root}manifest.webmanifest">'] if root is not None else []
    assert [link for link in links if 'rel="icon"' not in link] == manifest, links
    assert all(re.fullmatch(r'<link rel="icon" href="data:image/svg\+xml,[^"]*">', link) for link in links[:1]), links
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", page.replace("http://www.w3.org/2000/svg", ""))
    assert "import {" not in page.split('<script type="module">')[1]  # the engine is inlined, not imported


def record_of(data: dict) -> str:
    """The page's line as a game record text."""
    return json.dumps({"deck": data["deck"], "rules": data["rules"], "moves": data["line"]})


def test_solve_html_steps_through_a_winning_line() -> None:
    result = run("solve", "--seed", "0", "--format", "html")
    assert result.exit_code == 0
    assert_self_contained(result.stdout)
    data = page_data(result.stdout)
    assert data["kind"] == "line" and data["result"] == "win"
    assert judge(parse_record(record_of(data))).won
    assert "<title>Deal 0, rules standard</title>" in result.stdout


@pytest.mark.parametrize("rules", ["standard", "camelot", "optional+groups+royals"])
def test_solve_html_of_a_lost_deal_steps_to_its_jam(rules: str) -> None:
    seeds = range(1, 40)
    for seed in seeds:
        result = run("solve", "--seed", str(seed), "--rules", rules, "--format", "html")
        if result.exit_code == 1:
            break
    assert result.exit_code == 1, f"no lost deal among seeds {seeds} under {rules}"
    data = page_data(result.stdout)
    assert data["result"] == "loss" and data["reason"]
    verdict = judge(parse_record(record_of(data)))
    assert verdict.outcome.status.value == "lost" and verdict.illegal is None


def test_solve_html_shows_one_deal() -> None:
    assert_bad_input(
        run("solve", "--seed", "0", "--count", "2", "--format", "html"), "--format html shows one deal: drop --count"
    )


def test_page_script_closes_no_script_early() -> None:
    assert "</script" not in asset("engine.mjs") + asset("page.mjs")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "out"
    result = run(
        "site", "--from", FIRST, "--days", "3", "--out", str(out), "--include-future", "--base-url", BASE, "--no-cache"
    )
    assert result.exit_code == 0, result.stderr
    assert unwrapped(result.stdout) == [f"wrote 13 files for 3 dates under standard to {out}"]
    return out


@pytest.mark.slow
def test_site_has_the_archive_pages_json_and_feed(built: Path) -> None:
    days = ["2027-03-01", "2027-03-02", "2027-03-03"]
    names = sorted(str(p.relative_to(built)) for p in built.rglob("*") if p.is_file())
    pages = ["daily/" + d + ext for d in days for ext in (".html", ".json")]
    assert names == sorted([site.MARKER, *OFFLINE, *GAMES, "feed.json", "index.html", *pages])
    assert (built / site.MARKER).read_text() == site.MARKER_TEXT
    index = (built / "index.html").read_text()
    corner = (built / "corner.html").read_text()
    assert '<a href="corner.html">Kings Corner, 2 to 4 players</a>' in index and "<title>Kings Corner</title>" in corner
    assert all('<a href="../corner.html">' in (built / "daily" / f"{day}.html").read_text() for day in days)
    for day in days:
        found = json.loads((built / "daily" / f"{day}.json").read_text())
        assert {
            "date",
            "seed",
            "rules",
            "deck",
            "difficulty",
            "difficulty_interval",
            "difficulty_is",
            "grade",
            "face_up_lookahead",
            "solution",
        } <= set(found)
        assert found["difficulty_is"] == DIFFICULTY_IS
        assert found["date"] == day
        measured = daily(dt.date.fromisoformat(day), parse_rules("standard")).difficulty
        assert found["difficulty_interval"] == list(measured.interval())
        assert found["difficulty_interval"][0] <= found["difficulty"] <= found["difficulty_interval"][1]
        assert judge(parse_record(json.dumps(found["solution"]))).won
        assert f'href="daily/{day}.html"' in index and f'class="g-{found["grade"]}' in index
        page = (built / "daily" / f"{day}.html").read_text()
        assert_self_contained(page, "../")
        data = page_data(page)
        assert (data["kind"], data["date"], data["grade"], data["deck"]) == (
            "daily",
            day,
            found["grade"],
            found["deck"],
        )
        assert data["line"] == found["solution"]["moves"]
        assert data["seed"] == str(found["seed"])  # a string: JavaScript numbers lose deal numbers above 2**53
    feed = json.loads((built / "feed.json").read_text())
    assert feed["version"] == "https://jsonfeed.org/version/1.1" and feed["title"]
    assert [item["url"] for item in feed["items"]] == [f"{BASE}daily/{d}.html" for d in reversed(days)]
    assert all(isinstance(item["_kcsolve"]["seed"], str) for item in feed["items"])
    assert all(
        item["id"] and item["content_text"] and item["date_published"].endswith("T00:00:00Z") for item in feed["items"]
    )
    for item in feed["items"]:
        low, high = item["_kcsolve"]["difficulty_interval"]
        assert 0 <= low <= item["_kcsolve"]["difficulty"] <= high <= 1
        said = item["content_text"]
        assert f"{in_words(item['_kcsolve']['difficulty'])}. Face up: " in said and "Proved winnable." in said
        assert f"{MEANING[:1].upper()}{MEANING[1:]}: " in said and "95% interval" in said


@pytest.mark.slow
def test_a_daily_page_says_the_chance_in_words_first_and_what_it_is_in_details(built: Path) -> None:
    """The headline gives the honest chance in words with its figure; the details say what it is, with its interval."""
    page = (built / "daily" / f"{FIRST}.html").read_text()
    data = page_data(page)
    headline = re.search(r'<p class="headline"><strong>([^<]+)</strong><br>Face up: [^<]+</p>', page)
    assert headline and headline[1].removesuffix(in_words(data["difficulty"])).endswith((": ", ": about "))
    details = page[page.index('<details class="about"><summary>About this deal</summary>') :]
    details = details[: details.index("</details>")]
    assert f"<p>{MEANING[:1].upper()}{MEANING[1:]}: {in_words(data['difficulty'])} (95% interval " in details
    assert f"Deal {data['seed']}, rules standard." in details and f'href="{FIRST}.json"' in details


def test_site_deals_are_the_daily_deals(built: Path) -> None:
    listed = json.loads(run("daily", "--date", FIRST, "--no-solution", "--format", "json").stdout)
    found = json.loads((built / "daily" / f"{FIRST}.json").read_text())
    assert (found["seed"], found["deck"], found["grade"]) == (listed["seed"], listed["deck"], listed["grade"])


def test_each_page_holds_the_sites_deals(built: Path) -> None:
    """An import is held to the site's deals: every page carries each date's candidate number, which gives its deal."""
    page = (built / "daily" / f"{FIRST}.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="kc-data">(.*?)</script>', page)[1])
    dates = sorted(path.stem for path in (built / "daily").glob("*.json"))
    [[first, attempts]] = data["deals"]  # one run of consecutive days
    assert first == dates[0] and len(attempts) == len(dates)
    for day, attempt in zip(dates, attempts):
        seed = json.loads((built / "daily" / f"{day}.json").read_text())["seed"]
        assert candidate_seed(dt.date.fromisoformat(day), parse_rules("standard"), attempt) == seed


@pytest.fixture(scope="module")
def deals() -> list:
    rules = parse_rules("standard")
    return [daily(dt.date(2027, 3, 1) + dt.timedelta(days=k), rules) for k in range(2)]


def test_the_offline_files_manifest_worker_and_icons(built: Path) -> None:
    manifest = json.loads((built / offline.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["name"] == "Kings in the Corners \u2014 kcsolve daily" and manifest["short_name"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("./index.html", "./", "standalone")
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and re.fullmatch(
        r"#[0-9a-f]{6}", manifest["background_color"]
    )
    assert [(i["src"], i["type"], i["purpose"]) for i in manifest["icons"]] == [
        (offline.ICON, "image/svg+xml", "any"),
        (offline.MASKABLE_ICON, "image/svg+xml", "maskable"),
    ]
    for icon in manifest["icons"]:  # drawn by kcsolve: nothing in them is fetched
        svg = (built / icon["src"]).read_text(encoding="utf-8")
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "href" not in svg
    worker = (built / offline.WORKER).read_text(encoding="utf-8")
    build = json.loads(worker.split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    days = ["2027-03-01", "2027-03-02", "2027-03-03"]
    root = ["corner.html", "feed.json", "icon-maskable.svg", "icon.svg", "index.html", "manifest.webmanifest"]
    assert build["precache"] == root + [f"daily/{d}.html" for d in days]
    assert (build["first"], build["last"]) == (days[0], days[-1]) and re.fullmatch(r"[0-9a-f]{16}", build["version"])
    assert all((built / name).is_file() for name in build["precache"])
    assert 'self.addEventListener("fetch"' in worker and "caches.delete" in worker
    index = (built / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="manifest.webmanifest">' in index
    assert all("offline.mjs" in modules for modules in (MODULES, ARCHIVE_MODULES))
    assert "registerOffline(document, navigator, location)" in index


def test_the_worker_keeps_the_newest_week_and_changes_with_the_site() -> None:
    pages = {f"daily/2027-03-{d:02}.html": str(d) for d in range(1, 11)} | {"index.html": "i"}
    build = json.loads(offline.worker(pages).split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert build["precache"] == ["index.html"] + [f"daily/2027-03-{d:02}.html" for d in range(4, 11)]
    again = json.loads(offline.worker(pages).split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    changed = json.loads(offline.worker({**pages, "index.html": "j"}).split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert again["version"] == build["version"] != changed["version"]  # a rebuilt site's cache replaces the old


def test_a_site_without_the_offline_files_is_still_kcsolves_own(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--include-future").exit_code == 0
    for name in OFFLINE:
        (out / name).unlink()  # as a kcsolve before offline play wrote it
    result = run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--force", "--include-future")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted([site.MARKER, "daily", "index.html", *OFFLINE, *GAMES])


@pytest.mark.slow
def test_archive_marks_today(deals: list) -> None:
    page = site.archive_page(deals, dt.date(2027, 3, 2))
    assert re.search(r'<td class="g-\w+ today" data-date="2027-03-02">', page)
    assert page.count(' today"') == 1


@pytest.mark.slow
def test_force_replaces_only_a_site_kcsolve_wrote(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--include-future").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted([site.MARKER, "daily", "index.html", *OFFLINE, *GAMES])
    assert_bad_input(
        run("site", "--from", FIRST, "--days", "1", "--out", str(out)),
        f"--out {str(out)!r} is a site kcsolve wrote: --force replaces it",
    )
    result = run("site", "--from", FIRST, "--days", "2", "--out", str(out), "--force", "--include-future")
    assert result.exit_code == 0, result.stderr
    assert len(list((out / "daily").iterdir())) == 4
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging or old directory left beside it


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_a_folder_holding_anything_else_is_refused_whatever_the_flags(tmp_path: Path, force: list[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    (out / "daily").mkdir()
    assert_bad_input(
        run("site", "--from", FIRST, "--days", "1", "--out", str(out), *force),
        f"--out {str(out)!r} holds 'daily', 'mine.txt', not a site kcsolve wrote: "
        "move them away or name another folder",
    )
    for count in (3, 5):
        (out / f"more{count}").write_text("")
    assert_bad_input(
        run("site", "--from", FIRST, "--days", "1", "--out", str(out), *force),
        f"--out {str(out)!r} holds 'daily', 'mine.txt', 'more3' and 1 more, not a site kcsolve "
        "wrote: move them away or name another folder",
    )
    assert (out / "mine.txt").read_text() == "keep me"


def test_a_site_written_before_the_marker_is_refused_with_what_to_do(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--include-future").exit_code == 0
    for name in (site.MARKER, *OFFLINE, *GAMES):  # a site that old had no offline files or other game either
        (out / name).unlink()
    assert_bad_input(
        run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--force", "--include-future"),
        f"--out {str(out)!r} holds a site without the {site.MARKER} file that marks kcsolve's own "
        "(an older kcsolve wrote it?): remove the folder, then run again",
    )
    assert sorted(p.name for p in out.iterdir()) == ["daily", "index.html"]


@pytest.mark.parametrize(
    "where, what",
    [
        (".", "the current folder"),
        ("..", "a folder above the current folder"),
        ("home", "the home folder"),
        ("above-home", "a folder above the home folder"),
    ],
)
def test_the_current_and_home_folders_are_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, what: str
) -> None:
    """Not even empty, or holding a site: renaming them away would leave the user's shell in a removed folder."""
    home = tmp_path / "above-home" / "home"
    work = tmp_path / "work" / "here"
    for folder in (home, work):
        folder.mkdir(parents=True)
        (folder / site.MARKER).write_text(site.MARKER_TEXT)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    out = {"home": str(home), "above-home": str(home.parent)}.get(where, where)
    assert_bad_input(
        run("site", "--from", FIRST, "--days", "1", "--out", out, "--force", "--include-future"),
        f"--out {out!r} is {what}: kcsolve never replaces it; name a folder for the site",
    )
    assert (home / site.MARKER).exists() and (work / site.MARKER).exists()


def test_a_link_to_the_site_stays_a_link(tmp_path: Path) -> None:
    """--out LINK --force replaces the folder the link names, and the link still names it."""
    real = tmp_path / "real"
    real.mkdir()
    (real / site.MARKER).write_text(site.MARKER_TEXT)
    (real / "index.html").write_text("an old site")
    (tmp_path / "link").symlink_to(real)
    result = run("site", "--from", FIRST, "--days", "1", "--out", str(tmp_path / "link"), "--force", "--include-future")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "link").is_symlink() and (tmp_path / "link").resolve() == real
    assert sorted(p.name for p in real.iterdir()) == sorted([site.MARKER, "daily", "index.html", *OFFLINE, *GAMES])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]  # no staging or old directory left


def test_an_empty_directory_is_used(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--include-future").exit_code == 0
    assert (out / "index.html").is_file()


@pytest.mark.parametrize(
    "where, message",
    [
        ("/proc/kcsolve-site", "cannot write '/proc/kcsolve-site': No such file or directory"),
        ("/nonexistent-kc/site", "cannot write '/nonexistent-kc/site': the directory '/nonexistent-kc' does not exist"),
    ],
)
def test_an_unwritable_place_is_one_line(where: str, message: str) -> None:
    assert_bad_input(run("site", "--from", FIRST, "--days", "1", "--out", where, "--include-future"), message)


def test_a_file_is_not_a_directory(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("x")
    assert_bad_input(run("site", "--days", "1", "--out", str(path)), f"--out {str(path)!r} is not a directory")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--from", "2027-02-30"], "no such day: '2027-02-30' (February 2027 has 28 days)"),
        (["--from", "9999-12-31", "--days", "2"], "--from 9999-12-31 --days 2 runs past the last date, 9999-12-31"),
        (["--days", "5000"], "--days 5000: at most 3,660 dates in one site"),
        (["--rules", "swapp"], None),
    ],
)
def test_bad_site_options(tmp_path: Path, args: list[str], message: str | None) -> None:
    out = tmp_path / "out"
    assert_bad_input(run("site", *args, "--out", str(out)), message)
    assert not out.exists()


def test_a_base_url_makes_the_feed_absolute(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert (
        run(
            "site",
            "--from",
            FIRST,
            "--days",
            "1",
            "--out",
            str(out),
            "--base-url",
            "https://example.org/kc",
            "--include-future",
        ).exit_code
        == 0
    )
    feed = json.loads((out / "feed.json").read_text())
    assert feed["home_page_url"] == "https://example.org/kc/" and feed["feed_url"] == "https://example.org/kc/feed.json"
    assert feed["items"][0]["url"] == f"https://example.org/kc/daily/{FIRST}.html"
    assert_bad_input(
        run("site", "--days", "1", "--out", str(tmp_path / "other"), "--base-url", "ftp://x"),
        "--base-url 'ftp://x' is not an http:// or https:// address",
    )


def test_a_failed_write_leaves_nothing(deals: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / site.MARKER).write_text(site.MARKER_TEXT)
    (out / "index.html").write_text("the old site")
    calls = []

    def failing(found: object, *neighbours: object) -> str:
        calls.append(found)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return "<!doctype html>"

    monkeypatch.setattr(site, "daily_page", failing)
    with pytest.raises(site.SiteError, match=r"cannot write .*: No space left on device"):
        site.write_site(deals, out, force=True, include_future=True)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    assert sorted(p.name for p in out.iterdir()) == [site.MARKER, "index.html"]


@pytest.mark.slow
def test_a_built_wheel_ships_the_web_assets(tmp_path: Path) -> None:
    import subprocess
    import sys
    import zipfile

    root = Path(__file__).resolve().parents[2]
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(root)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    wheel = next(tmp_path.glob("kcsolve-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "installed")
    code = (
        "from kcsolve.patience.daily.webpage import inline_script, asset; import kcsolve.patience.daily.webpage as w; "
        "print(w.__file__); print(len(inline_script()), len(asset('style.css')))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(tmp_path / "installed")},
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.split("\n")
    assert shown[0].startswith(str(tmp_path / "installed"))
    script, style = map(int, shown[1].split())
    assert script > 20000 and style > 1000


def test_page_data_cannot_close_its_script(deals: list) -> None:
    import dataclasses

    from kcsolve.patience.daily.webpage import daily_page, solution_page

    sneaky = dataclasses.replace(deals[0].solution, reason="</script><script>alert(1)</script><!--")
    page = solution_page(sneaky, "a </script> title")
    assert page_data(page)["reason"] == sneaky.reason
    assert page.count("</script>") == 2 and "<!--" not in page
    assert "</script>" not in daily_page(deals[0]).split('id="kc-data">')[1].split("</script>")[0]


def test_the_site_address_jumps_to_today_over_runs_of_dates() -> None:
    """index.html opens today's deal when the site has that date (its dates as runs); #all keeps the archive."""
    days = [dt.date(2027, 3, 1), dt.date(2027, 3, 2), dt.date(2027, 3, 5)]
    assert site.date_runs(days) == [["2027-03-01", "2027-03-02"], ["2027-03-05", "2027-03-05"]]
    script = site.to_today(days)
    assert '[["2027-03-01","2027-03-02"],["2027-03-05","2027-03-05"]]' in script
    assert 'location.hash !== "#all"' in script and "location.replace(`daily/${today}.html`)" in script


def test_each_page_links_its_neighbours_and_works_without_javascript(built: Path) -> None:
    pages = {day: (built / "daily" / f"{day}.html").read_text() for day in ("2027-03-01", "2027-03-02", "2027-03-03")}
    middle = pages["2027-03-02"]
    assert '<a href="2027-03-01.html" rel="prev"' in middle and '<a href="2027-03-03.html" rel="next"' in middle
    assert 'rel="prev"' not in pages["2027-03-01"] and 'rel="next"' not in pages["2027-03-03"]
    assert all('<a href="../index.html#all">All dates</a>' in page for page in pages.values())  # the archive itself
    assert "<title>Kings in the Corners, 2027-03-02</title>" in middle  # the game named, with the date
    found = json.loads((built / "daily" / "2027-03-02.json").read_text())
    fallback = middle.split("<noscript>")[2].split("</noscript>")[0]  # the first is in the head: its style
    assert " ".join(found["deck"]) in fallback and '<a href="2027-03-02.json">The solution</a>' in fallback


def test_the_site_stops_at_today(deals: list, tmp_path: Path) -> None:
    out = tmp_path / "out"
    files = site.write_site(deals, out, today=dt.date(2027, 3, 1))
    assert files == sorted(["daily/2027-03-01.html", "daily/2027-03-01.json", "index.html", *OFFLINE])
    assert 'rel="next"' not in (out / "daily" / "2027-03-01.html").read_text()
    files = site.write_site(deals, out, force=True, today=dt.date(2027, 3, 1), include_future=True)
    assert "daily/2027-03-02.html" in files
    site.write_site(deals, out, force=True, today=dt.date(2027, 3, 2), base_url="https://example.org/kc/")
    items = json.loads((out / "feed.json").read_text())["items"]
    assert [item["url"] for item in items] == [f"https://example.org/kc/daily/2027-03-0{d}.html" for d in (2, 1)]
    assert "2027-03-03" not in (out / "index.html").read_text()


def test_future_dates_need_include_future(tmp_path: Path) -> None:
    """Today is read when the command runs: a run across UTC midnight may name either day, and --from is after both."""
    before = dt.datetime.now(dt.UTC).date()
    later = before + dt.timedelta(days=2)
    out = tmp_path / "out"
    result = run("site", "--from", later.isoformat(), "--out", str(out))
    after = dt.datetime.now(dt.UTC).date()
    assert_bad_input(
        result,
        {
            f"--from {later.isoformat()} is after today ({today.isoformat()}, UTC): "
            "give --include-future to write future dates"
            for today in (before, after)
        },
    )
    assert not out.exists()


def test_a_feed_needs_a_base_url(deals: list, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert_bad_input(
        run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--feed", "--include-future"),
        "--feed needs --base-url URL: feed readers cannot follow the site's relative links",
    )
    assert not out.exists()
    with pytest.raises(site.SiteError, match="a feed needs --base-url"):
        site.feed(deals, "")
    site.write_site(deals, out, include_future=True)
    assert not (out / "feed.json").exists() and "feed.json" not in (out / "index.html").read_text()


def test_the_inlined_modules_declare_each_top_level_name_once() -> None:
    from collections import Counter

    from kcsolve.patience.daily.webpage import MODULES

    declared = re.compile(
        r"^(?:export )?(?:async )?(?:function\*?|const|let|var|class) +([A-Za-z_$][\w$]*)", re.MULTILINE
    )
    counts = Counter(name for module in MODULES for name in declared.findall(asset(module)))
    assert [name for name, n in counts.items() if n > 1] == []  # one inline module: a second declaration is an error


@pytest.mark.parametrize(
    "rules, words",
    [
        (
            "royals+optional+goal=clear",
            [
                "court cards go in any of the twelve cells around the edge",
                "a Ten alone, or a pair",
                "Removal is optional",
                "every number card has been removed",
            ],
        ),
        (
            "swap+groups+deplete",
            [
                "never a Queen and a Jack together on one edge",
                "two or more cards Ace to Nine",
                "Removal is forced",
                "the stock is used up with all twelve court cards placed",
            ],
        ),
    ],
)
def test_how_to_play_follows_the_rules(rules: str, words: list[str]) -> None:
    page = run("solve", "--seed", "0", "--rules", rules, "--format", "html").stdout
    howto = page.split('<dialog id="kc-howto-dialog"')[1].split("</dialog>")[0]
    assert all(w in howto for w in words), howto


def building_makes(monkeypatch: pytest.MonkeyPatch, make: object) -> None:
    """While the site's files are written, ``make()`` runs: another program, or another run, fills --out."""
    real = site._write_files

    def writing(*args: object) -> list[str]:
        files = real(*args)  # type: ignore[arg-type]
        make()  # type: ignore[operator]
        return files

    monkeypatch.setattr(site, "_write_files", writing)


def a_site(folder: Path, *extra: str) -> None:
    """A site of kcsolve's at ``folder``, and the files ``extra`` of the user's beside it."""
    (folder / "daily").mkdir(parents=True)
    (folder / site.MARKER).write_text(site.MARKER_TEXT)
    (folder / "index.html").write_text("the old site")
    (folder / "daily" / "2027-03-01.json").write_text("{}")
    for name in extra:
        (folder / name).write_text("the user's")


def held(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with its text."""
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_a_folder_made_during_the_build_is_kept(
    deals: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, force: bool
) -> None:
    out = tmp_path / "mysite"

    def precious() -> None:
        out.mkdir()
        (out / "precious.txt").write_text("data")

    building_makes(monkeypatch, precious)
    with pytest.raises(site.SiteError) as refused:
        site.write_site(deals, out, force=force, include_future=True)
    assert str(refused.value) == (
        f"--out {str(out)!r} holds 'precious.txt', not a site kcsolve wrote: move them away or name another folder"
    )
    assert held(out) == {"precious.txt": "data"}
    assert [p.name for p in tmp_path.iterdir()] == ["mysite"]  # no staging left beside it


def test_a_site_another_run_wrote_during_the_build_needs_force(
    deals: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "mysite"
    building_makes(monkeypatch, lambda: a_site(out))
    with pytest.raises(site.SiteError, match=r"is a site kcsolve wrote: --force replaces it$"):
        site.write_site(deals, out, include_future=True)
    assert held(out)["index.html"] == "the old site"


def test_a_file_put_in_the_old_site_during_the_build_is_kept(
    deals: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "mysite"
    a_site(out)
    building_makes(monkeypatch, lambda: (out / "daily" / "notes.txt").write_text("the user's"))
    with pytest.raises(site.SiteError) as refused:
        site.write_site(deals, out, force=True, include_future=True)
    assert str(refused.value) == (
        f"--out {str(out)!r} holds 'daily/notes.txt' beside the site kcsolve wrote: "
        "move them away or name another folder"
    )
    assert held(out)["daily/notes.txt"] == "the user's" and held(out)["index.html"] == "the old site"
    assert [p.name for p in tmp_path.iterdir()] == ["mysite"]


def test_a_file_put_in_the_old_site_at_the_swap_is_put_back(
    deals: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder is checked again once moved aside, where nothing else writes: a file that came after the last
    check before the rename is seen there, and the folder goes back in place, whole."""
    out = tmp_path / "mysite"
    a_site(out)
    real = site.check_out_dir
    checks = []

    def checking(folder: Path, force: bool) -> None:
        real(folder, force)
        checks.append(folder)
        if len(checks) == 2:  # the check under the lock, just before the swap
            (out / "CNAME").write_text("example.org")

    monkeypatch.setattr(site, "check_out_dir", checking)
    with pytest.raises(site.SiteError, match=r"holds 'CNAME' beside the site kcsolve wrote"):
        site.write_site(deals, out, force=True, include_future=True)
    assert held(out) == {
        site.MARKER: site.MARKER_TEXT,
        "CNAME": "example.org",
        "daily/2027-03-01.json": "{}",
        "index.html": "the old site",
    }
    assert [p.name for p in tmp_path.iterdir()] == ["mysite"]


@pytest.mark.parametrize(
    "extra, shown",
    [
        (["CNAME"], "'CNAME'"),
        (["a", "b", "c", "d"], "'a', 'b', 'c' and 1 more"),
        (["daily/mine.html"], "'daily/mine.html'"),
    ],
)
def test_force_refuses_a_site_holding_the_users_files(tmp_path: Path, extra: list[str], shown: str) -> None:
    """--force replaces only what kcsolve wrote: a marked site with anything else in it is refused, untouched."""
    out = tmp_path / "out"
    a_site(out, *extra)
    before = held(out)
    assert_bad_input(
        run("site", "--from", FIRST, "--days", "1", "--out", str(out), "--force", "--include-future"),
        f"--out {str(out)!r} holds {shown} beside the site kcsolve wrote: move them away or name another folder",
    )
    assert held(out) == before


SLOW_WRITER = """
import sys, time
from kcsolve.cli import main
from kcsolve.patience.daily import site
real = site._write_files
def slow(*args):
    time.sleep(1.5)  # both runs have checked --out before either renames its site into place
    return real(*args)
site._write_files = slow
sys.argv[0] = "kcsolve"
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_two_builds_into_one_new_folder(tmp_path: Path, force: list[str]) -> None:
    """Two runs at once: without --force the second is refused, with it the second replaces the first."""
    import subprocess
    import sys

    out = tmp_path / "mysite"
    args = ["site", "--from", FIRST, "--days", "1", "--out", str(out), "--include-future", "--no-cache", *force]
    runs = [
        subprocess.Popen([sys.executable, "-c", SLOW_WRITER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    ends = sorted((process.wait(120), process.stderr.read().decode()) for process in runs)  # type: ignore[union-attr]
    if force:
        assert ends == [(0, ""), (0, "")]
    else:
        assert ends == [
            (0, ""),
            (2, f"Error: {shorten(f'--out {str(out)!r} is a site kcsolve wrote: --force replaces it')}\n"),
        ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mysite"]
    assert sorted(p.name for p in out.iterdir()) == sorted([site.MARKER, "daily", "index.html", *OFFLINE, *GAMES])
