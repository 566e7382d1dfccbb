"""The ``site`` command: a static web site of daily deals."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from kcsolve.cli.base import CONTEXT, Ticker, cli, parse_date, ramp_option
from kcsolve.common.words import paragraph, plural
from kcsolve.patience.rules import parse_rules


@cli.command("site", context_settings=CONTEXT)
@click.option("--from", "date_text", help="The first date, YYYY-MM-DD (default: today in UTC).")
@click.option("--days", type=click.IntRange(min=1), default=7, show_default=True, help="How many consecutive dates.")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@ramp_option
@click.option("--out", "out_text", required=True, metavar="DIR", help="The directory to write the site into.")
@click.option("--force", is_flag=True, help="Replace DIR when it holds a site kcsolve wrote.")
@click.option(
    "--base-url",
    default="",
    metavar="URL",
    help="Where the site will be served (https://...); writes feed.json with absolute addresses.",
)
@click.option("--feed", "want_feed", is_flag=True, help="Insist on feed.json: refused without --base-url.")
@click.option(
    "--include-future", is_flag=True, help="Also write the dates after today (UTC); by default the site stops at today."
)
@click.option(
    "--no-cache", is_flag=True, help="Measure every date again instead of reusing the dates an earlier run measured."
)
def site_command(
    date_text: str | None,
    days: int,
    rules_text: str,
    ramp: bool,
    out_text: str,
    force: bool,
    base_url: str,
    want_feed: bool,
    include_future: bool,
    no_cache: bool,
) -> None:
    """Write a static site of daily deals: a page to play each date on, an archive and a feed.

    DIR gets index.html (a calendar of the dates with their grades), daily/DATE.html
    (the deal played in the browser, and its winning line step by step), daily/DATE.json,
    corner.html (Kings Corner for 2 to 4 players against the bots) and, with
    --base-url, feed.json (JSON Feed 1.1). Dates after today (UTC) are left
    out unless --include-future. The pages fetch nothing when viewed. The site is
    written beside DIR and renamed into place, so a failed run leaves nothing behind.
    A DIR that exists must be empty, or a site kcsolve wrote (its .kcsolve-site
    file says so) and nothing else, which --force replaces; the current and home
    folders never are. DIR is checked again, under a lock, when the site is
    renamed into place: what appeared there meanwhile is kept and refused.
    Each date measured is kept in the user's cache (KCSOLVE_CACHE_DIR, else
    ~/.cache/kcsolve), so a run that is stopped keeps the dates it finished and a
    rebuild measures only new dates; kept dates are checked before they are used.
    """
    from kcsolve.corner.webpage import corner_page
    from kcsolve.patience.daily.site import site_dates, site_deals, write_site

    rules = parse_rules(rules_text)
    first = parse_date(date_text)
    out = Path(out_text)
    today = dt.datetime.now(dt.UTC).date()
    dates = site_dates(first, days, out, force, base_url, want_feed, include_future, today)
    with Ticker("daily deals") as ticker:

        def note(day: dt.date, number: int) -> None:
            ticker.note(f"{day.isoformat()} ({number:,} of {len(dates):,} dates)")

        found, reused = site_deals(dates, rules, ramp, not no_cache, note)
    corner = ("corner.html", "Kings Corner, 2 to 4 players", corner_page())
    files = write_site(found, out, force, today, base_url, include_future, games=(corner,))
    _say_written(files, len(dates), days - len(dates), reused, str(rules), out_text)


def _say_written(files: list[str], dates: int, left: int, reused: int, rules: str, out_text: str) -> None:
    """What was written where: files and dates, how many kept from an earlier run, how many future dates left out."""
    later = f" ({plural(left, 'future date')} left out: --include-future writes them)" if left else ""
    written = f"{plural(len(files), 'file')} for {plural(dates, 'date')}"
    measured = f"; {reused:,} of them kept from an earlier run" if reused else ""
    click.echo(paragraph(f"wrote {written} under {rules} to {out_text}{measured}{later}"))
