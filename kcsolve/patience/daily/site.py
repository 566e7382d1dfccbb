"""A static site of daily deals: an archive calendar, one playable page and one JSON file per date, a JSON Feed.

The site is written into a fresh directory beside the target and renamed into
place, so a run that fails leaves the target as it was and nothing half-written.
"""

from __future__ import annotations

import calendar
import datetime as dt
import fcntl
import html
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kcsolve.errors import KcsolveError
from kcsolve.patience.daily.calendar import DailyDeal
from kcsolve.patience.daily.kept import KeptDays, kept_daily
from kcsolve.patience.daily.offline import OFFLINE_FILES, head_links, offline_files
from kcsolve.patience.daily.webpage import (
    ARCHIVE_MODULES,
    FAVICON,
    asset,
    daily_page,
    deal_runs,
    inline_script,
    json_for_script,
)
from kcsolve.patience.daily.words import about_sentences, chance_words, face_up_words
from kcsolve.patience.players.honest import DIFFICULTY_IS
from kcsolve.patience.rules import Rules

FEED_VERSION = "https://jsonfeed.org/version/1.1"
MAX_SITE_DAYS = 3660  # ten years of pages; more is refused before any deal is computed
# Written into every site: --force replaces a folder only when it holds this file, so it never deletes what a
# user keeps there. A site written before it existed holds none: it is refused, with a line saying to remove it.
MARKER = ".kcsolve-site"
UNMARKED_SITE = {"index.html", "daily", "feed.json"}  # what a site written before the marker holds
MARKER_TEXT = "This folder is a site written by kcsolve site; kcsolve site --force replaces it whole.\n"
# The files of a site's folder, beside daily/: a site written before the offline files (manifest, worker, icons)
# lacks them and is still kcsolve's own.
# The pages of the site's other games that kcsolve writes beside index.html (kcsolve site passes them in).
GAME_PAGES = ("corner.html",)
SITE_FILE = re.compile(
    "|".join(re.escape(name) for name in (MARKER, "index.html", "feed.json", *OFFLINE_FILES, *GAME_PAGES))
)
SITE_PAGE = re.compile(r"\d{4}-\d{2}-\d{2}\.(html|json)")  # the files of its daily/


class SiteError(KcsolveError):
    """An output directory that cannot be used: not a directory, not writable, or holding what kcsolve may not
    replace."""


def check_base_url(base_url: str) -> str:
    """An http(s) address the site will be served from, ending in '/'; SiteError otherwise."""
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", base_url):
        raise SiteError(f"--base-url {base_url!r} is not an http:// or https:// address")
    return base_url if base_url.endswith("/") else base_url + "/"


def feed(deals: list[DailyDeal], base_url: str) -> dict[str, Any]:
    """A JSON Feed 1.1 listing the dates, newest first, every address absolute under ``base_url``."""
    if not base_url:
        raise SiteError("a feed needs --base-url: feed readers cannot follow the site's relative links")
    base_url = check_base_url(base_url)
    rules = str(deals[0].rules) if deals else "standard"
    items = [
        {
            "id": f"kcsolve-daily/{found.rules}/{found.date.isoformat()}",
            "url": f"{base_url}daily/{found.date.isoformat()}.html",
            "title": f"kcsolve daily {found.date.isoformat()} ({found.grade})",
            "content_text": " ".join(
                [
                    f"The deal of {found.date.strftime('%A %d %B %Y')} under {found.rules} rules, grade {found.grade}.",
                    f"{chance_words(found.difficulty)}. {face_up_words(found.face_up_lookahead)}. Proved winnable.",
                    *about_sentences(found)[:1],
                ]
            ),
            "date_published": f"{found.date.isoformat()}T00:00:00Z",
            "_kcsolve": {
                "grade": found.grade,
                "difficulty": found.difficulty.chance,
                "difficulty_interval": list(found.difficulty.interval()),
                "difficulty_is": DIFFICULTY_IS,
                "seed": str(found.seed),
                "json": f"{base_url}daily/{found.date.isoformat()}.json",
            },
        }
        for found in sorted(deals, key=lambda d: d.date, reverse=True)
    ]
    head = {
        "version": FEED_VERSION,
        "title": f"kcsolve daily deals ({rules})",
        "home_page_url": base_url,
        "feed_url": f"{base_url}feed.json",
    }
    return {
        **head,
        "description": "One proved-winnable deal of Kings in the Corners a day; the day changes at midnight UTC.",
        "items": items,
    }


def _month_table(year: int, month: int, by_date: dict[dt.date, DailyDeal], today: dt.date) -> str:
    """One month of the archive: weeks from Monday, each date of the site linked with its grade."""
    rows = []
    for week in calendar.Calendar().monthdatescalendar(year, month):
        cells = []
        for day in week:
            found = by_date.get(day) if day.month == month else None
            if found is None:
                cells.append("<td></td>" if day.month != month else f"<td>{day.day}</td>")
                continue
            mark = " today" if day == today else ""
            cells.append(
                f'<td class="g-{found.grade}{mark}" data-date="{day.isoformat()}">'
                f'<a href="daily/{day.isoformat()}.html">{day.day}<span class="grade">{found.grade}</span></a></td>'
            )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f"<th>{name}</th>" for name in calendar.day_abbr)
    return (
        f'<table class="calendar"><caption>{calendar.month_name[month]} {year}</caption>'
        f"<tr>{head}</tr>{''.join(rows)}</table>"
    )


def date_runs(dates: list[dt.date]) -> list[list[str]]:
    """The dates as runs of consecutive days, [[first, last], ...] (ISO), for the address's jump to today."""
    runs: list[list[str]] = []
    last: dt.date | None = None
    for day in sorted(dates):
        if last is None or day != last + dt.timedelta(days=1):
            runs.append([day.isoformat(), day.isoformat()])
        runs[-1][1] = day.isoformat()
        last = day
    return runs


def to_today(dates: list[dt.date]) -> str:
    """A script for the archive's head: the site's address opens today's deal (UTC, when the page is viewed) where the
    site has it; ``#all`` (the daily pages' link to all dates) keeps the archive. Without script the archive shows."""
    runs = json.dumps(date_runs(dates), separators=(",", ":"))
    return (
        "<script>{const today = new Date().toISOString().slice(0, 10);"
        f'if (location.hash !== "#all" && {runs}.some(([a, b]) => a <= today && today <= b)) '
        "location.replace(`daily/${today}.html`);}</script>\n"
    )


def archive_page(
    deals: list[DailyDeal], today: dt.date, feed: bool = False, games: tuple[tuple[str, str], ...] = ()
) -> str:
    """``index.html``: a calendar of the dates, each with its grade; today's deal is found when the page is viewed.

    ``games``: the site's other games, (file name, link text), linked from the header.
    """
    by_date = {found.date: found for found in deals}
    months = sorted({(d.year, d.month) for d in by_date})
    tables = "\n".join(_month_table(year, month, by_date, today) for year, month in months)
    rules = html.escape(str(deals[0].rules)) if deals else "standard"
    todays = by_date.get(today)
    lead = (
        f'Today (UTC): <a href="daily/{today.isoformat()}.html">the deal of {today.isoformat()}</a>.' if todays else ""
    )
    feed_link = (
        '<link rel="alternate" type="application/feed+json" href="feed.json" title="kcsolve daily deals">\n'
        if feed
        else ""
    )
    feed_words = ' <a href="feed.json">feed.json</a>' if feed else ""
    data = {"rules": str(deals[0].rules) if deals else "standard"}
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f'<link rel="icon" href="{FAVICON}">\n{head_links("")}'
        f"{to_today(list(by_date))}<title>kcsolve daily deals</title>\n"
        f"<style>\n{asset('style.css')}</style>\n{feed_link}</head>\n<body>\n"
        f'<header>\n<div class="bar"><h1>kcsolve daily deals</h1>{_game_links(games)}</div>\n</header>\n'
        '<main>\n<section class="side">\n'
        f"<p>Kings in the Corners, rules {rules}: one proved-winnable deal "
        "a day, the same for everyone; the day changes at midnight UTC"
        f'<span id="kc-local-change"></span>.{feed_words}</p>\n'
        f'<p id="kc-today">{lead}</p>\n<p id="kc-unplayed"></p>\n'
        f'<p class="small legend" id="kc-legend" hidden>Your results, kept in this browser: '
        f'<span class="r-mark r-won">won</span> without help, '
        f'<span class="r-mark r-helped">help</span> finished with help, '
        f'<span class="r-mark r-shown">shown</span> solution shown, <span class="r-mark r-lost">lost</span>, '
        f'<span class="r-mark r-playing">begun</span> in progress; no mark: not played.</p>\n'
        f"{tables}\n</section>\n</main>\n"
        f'<script type="application/json" id="kc-data">{json_for_script(data)}</script>\n'
        f'<script type="module">\n{inline_script(ARCHIVE_MODULES)}</script>\n</body>\n</html>\n'
    )


def _game_links(games: tuple[tuple[str, str], ...]) -> str:
    """The header's links to the site's other games, or nothing."""
    if not games:
        return ""
    links = " ".join(f'<a href="{html.escape(name)}">{html.escape(text)}</a>' for name, text in games)
    return f'<nav aria-label="Games">{links}</nav>'


def check_out_dir(out: Path, force: bool) -> None:
    """Refuse an --out kcsolve may not fill: all but a new folder, an empty one, or its own site with ``force``."""
    if out.exists() and not out.is_dir():
        raise SiteError(f"--out {str(out)!r} is not a directory")
    parent = out.absolute().parent
    if not parent.is_dir():
        raise SiteError(f"cannot write {str(out)!r}: the directory {str(parent)!r} does not exist")
    if not out.is_dir():
        return
    kept = _kept_folder(Path(os.path.realpath(out)))
    if kept:
        raise SiteError(f"--out {str(out)!r} is {kept}: kcsolve never replaces it; name a folder for the site")
    refusal = _refusal(out, str(out), force)
    if refusal:
        raise SiteError(refusal)


def _refusal(folder: Path, shown: str, force: bool) -> str:
    """Why the existing ``folder`` (named ``shown`` to the user) may not be replaced by a site, or ''.

    Only an empty folder, or with ``force`` one that holds a site kcsolve wrote
    and nothing else, may be.
    """
    held = sorted(entry.name for entry in folder.iterdir())
    if not held:
        return ""
    if MARKER not in held and set(held) <= UNMARKED_SITE:
        return (
            f"--out {shown!r} holds a site without the {MARKER} file that marks kcsolve's own "
            "(an older kcsolve wrote it?): remove the folder, then run again"
        )
    if MARKER not in held:
        return f"--out {shown!r} holds {_listed(held)}, not a site kcsolve wrote: move them away or name another folder"
    foreign = _foreign(folder)
    if foreign:
        return (
            f"--out {shown!r} holds {_listed(foreign)} beside the site kcsolve wrote: "
            "move them away or name another folder"
        )
    if not force:
        return f"--out {shown!r} is a site kcsolve wrote: --force replaces it"
    return ""


def _listed(names: list[str]) -> str:
    """The first three ``names`` quoted, and how many more."""
    more = f" and {len(names) - 3:,} more" if len(names) > 3 else ""
    return ", ".join(repr(name) for name in names[:3]) + more


def _foreign(folder: Path) -> list[str]:
    """What the marked ``folder`` holds that no site of kcsolve's does (paths inside it, sorted): --force keeps off."""
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.name == "daily" and entry.is_dir() and not entry.is_symlink():
            found += [f"daily/{page.name}" for page in sorted(entry.iterdir()) if not _is_site_file(page, SITE_PAGE)]
        elif not _is_site_file(entry, SITE_FILE):
            found.append(entry.name)
    return found


def _is_site_file(path: Path, names: re.Pattern[str]) -> bool:
    """Whether ``path`` is a regular file (not a link) whose name a site of kcsolve's uses."""
    return bool(names.fullmatch(path.name)) and path.is_file() and not path.is_symlink()


def _kept_folder(target: Path) -> str:
    """What ``target`` is when it is a folder never to be replaced: the current or the home folder, or one above
    either (replacing it would pull the ground from under the user); else ''."""
    for folder, name in (
        (Path(os.path.realpath(os.getcwd())), "the current folder"),
        (Path(os.path.realpath(Path.home())), "the home folder"),
    ):
        if target == folder:
            return name
        if target in folder.parents:
            return f"a folder above {name}"
    return ""


def write_site(
    deals: list[DailyDeal],
    out: Path,
    force: bool = False,
    today: dt.date | None = None,
    base_url: str = "",
    include_future: bool = False,
    games: tuple[tuple[str, str, str], ...] = (),
) -> list[str]:
    """Write the site into a new directory beside ``out`` and rename it into place; the files written.

    Dates after ``today`` (UTC) are left out unless ``include_future``; feed.json is written only with ``base_url``.
    ``games``: the site's other games as (file name of :data:`GAME_PAGES`, link text, page), linked from every page.
    """
    for name, _, _ in games:
        if name not in GAME_PAGES:
            raise ValueError(f"{name!r} is not a game page kcsolve writes: {', '.join(GAME_PAGES)}")
    check_out_dir(out, force)
    today = today or dt.datetime.now(dt.UTC).date()
    if not include_future:
        deals = [found for found in deals if found.date <= today]
    target = Path(os.path.realpath(out))  # a link to the site's folder stays a link: the folder it names is replaced
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as exc:
        raise SiteError(f"cannot write {str(out)!r}: {exc.strerror or exc}") from None
    try:
        files = _write_files(deals, staging, today, check_base_url(base_url) if base_url else "", games)
        os.chmod(staging, 0o755)
        with _locked(target.parent):
            check_out_dir(out, force)  # again: a folder may have appeared, or another run finished, meanwhile
            _swap_in(staging, target, str(out), force)
    except BaseException as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise SiteError(f"cannot write {str(out)!r}: {exc.strerror or exc}") from None
        raise
    return files


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the lock of ``folder``, where sites are swapped in: one kcsolve at a time checks and renames there."""
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the folder is closed, however the process ends
        yield
    finally:
        os.close(handle)


def _write_files(
    deals: list[DailyDeal], root: Path, today: dt.date, base_url: str, games: tuple[tuple[str, str, str], ...]
) -> list[str]:
    """Every file of the site under ``root``."""
    links = tuple((name, text) for name, text, _ in games)
    pages = {"index.html": archive_page(deals, today, feed=bool(base_url), games=links)}
    pages.update((name, page) for name, _, page in games)
    if base_url:
        pages["feed.json"] = json.dumps(feed(deals, base_url), indent=1)
    dates = sorted(found.date for found in deals)
    runs = deal_runs(deals)
    for found in deals:
        day = found.date.isoformat()
        at = dates.index(found.date)
        before, after = (dates[at - 1] if at else None), (dates[at + 1] if at + 1 < len(dates) else None)
        pages[f"daily/{day}.html"] = daily_page(found, before, after, (dates[0], dates[-1]), runs, links)
        pages[f"daily/{day}.json"] = json.dumps(found.to_json(), indent=1)
    pages.update(offline_files(pages, str(deals[0].rules) if deals else "standard"))
    (root / "daily").mkdir()
    for name, text in pages.items():
        (root / name).write_text(text, encoding="utf-8")
    (root / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    return sorted(pages)


def _swap_in(staging: Path, out: Path, shown: str, force: bool) -> None:
    """Rename the finished site onto ``out``; a folder there is moved aside, checked again and removed after.

    The check of the folder moved aside sees it where no one else writes: if
    anything but an empty folder or, with ``force``, kcsolve's own site reached
    ``out`` since the check before it, the folder is put back and refused.
    """
    if not out.exists():
        staging.rename(out)  # a folder made there since the check: an empty one is replaced, any other refuses
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=staging.parent))
    old.rmdir()
    out.rename(old)
    try:
        refusal = _refusal(old, shown, force)
        if refusal:
            raise SiteError(refusal)
        staging.rename(out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old)


class SiteDatesError(KcsolveError):
    """Dates a site cannot be written for: more than MAX_SITE_DAYS, past the last date, or none up to today."""


def site_dates(
    first: dt.date,
    days: int,
    out: Path,
    force: bool = False,
    base_url: str = "",
    want_feed: bool = False,
    include_future: bool = False,
    today: dt.date | None = None,
) -> list[dt.date]:
    """The dates a site of ``days`` dates from ``first`` is written for, its options checked before any is measured.

    Dates after ``today`` (UTC) are left out unless ``include_future``; ``want_feed``
    insists on a feed, which needs ``base_url``. SiteDatesError or SiteError refuses.
    """
    if days > MAX_SITE_DAYS:
        raise SiteDatesError(f"--days {days}: at most {MAX_SITE_DAYS:,} dates in one site")
    if (dt.date.max - first).days < days - 1:
        raise SiteDatesError(
            f"--from {first.isoformat()} --days {days} runs past the last date, {dt.date.max.isoformat()}"
        )
    if want_feed and not base_url:
        raise SiteError("--feed needs --base-url URL: feed readers cannot follow the site's relative links")
    if base_url:
        check_base_url(base_url)
    check_out_dir(out, force)
    today = today or dt.datetime.now(dt.UTC).date()
    dates = [first + dt.timedelta(days=offset) for offset in range(days)]
    if not include_future:
        dates = [day for day in dates if day <= today]
    if not dates:
        raise SiteDatesError(
            f"--from {first.isoformat()} is after today ({today.isoformat()}, UTC): "
            "give --include-future to write future dates"
        )
    return dates


def site_deals(
    dates: list[dt.date],
    rules: Rules,
    ramp: bool = True,
    cache: bool = True,
    on_date: Callable[[dt.date, int], None] | None = None,
) -> tuple[list[DailyDeal], int]:
    """The deal of each date, and how many were kept from an earlier run (with ``cache``), the rest measured.

    ``on_date`` is called with each date and its place among ``dates`` (from 1) before its deal is found.
    """
    kept = KeptDays(rules, ramp) if cache else None
    found = []
    reused = 0
    for number, day in enumerate(dates, start=1):
        if on_date is not None:
            on_date(day, number)
        deal_of_day, was_kept = kept_daily(day, rules, ramp, kept)
        found.append(deal_of_day)
        reused += was_kept
    return found, reused
