"""The maths behind the statistics page: day buckets, chart geometry and retention.

Pure module: no Flask, no database. It takes the aggregates that :mod:`prep.stats.queries`
fetches (counts per study day, per state, per week) and returns plain dataclasses that the
templates draw as SVG. Days are the user's study days (local time zone, day start hour).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from ..zones import user_zone

LEECH_LAPSES = 8          # as Anki: this many lapses flags a card as a leech
MATURE_DAYS = 21          # as Anki: a review card with an interval of 21 days or more is mature
HEATMAP_DAYS = 90
FORECAST_DAYS = 30
TIME_DAYS = 30
RETENTION_WEEKS = 12
EPOCH = date(1970, 1, 1)


def is_leech(lapses: int | None, threshold: int = LEECH_LAPSES) -> bool:
    return (lapses or 0) >= threshold


# ---- study days as integers -------------------------------------------------------------

def day_number(day: date) -> int:
    """Days since 1970-01-01: the integer the database groups study days by."""
    return (day - EPOCH).days


def from_day_number(n: int) -> date:
    return EPOCH + timedelta(days=n)


def _shift(moment: datetime, tz: ZoneInfo, day_start_hour: int) -> int:
    offset = moment.astimezone(tz).utcoffset() or timedelta(0)
    return int(offset.total_seconds()) - day_start_hour * 3600


def offset_segments(tz_name: str, day_start_hour: int, start: datetime, end: datetime
                    ) -> list[tuple[datetime | None, int]]:
    """Piecewise-constant shifts, in seconds, that turn a UTC instant in [start, end) into its
    study day: ``(epoch_seconds + shift) // 86400`` is the day number.

    Returns ``[(None, shift0), (t1, shift1), ...]``: shift1 applies from t1 on (a DST change).
    """
    tz = user_zone(tz_name)
    segments: list[tuple[datetime | None, int]] = [(None, _shift(start, tz, day_start_hour))]
    t = start
    while t < end:
        nxt = min(t + timedelta(hours=1), end)
        if _shift(nxt, tz, day_start_hour) != segments[-1][1]:
            lo, hi = t, nxt  # the change is in (lo, hi]: narrow it to the second
            while hi - lo > timedelta(seconds=1):
                mid = lo + (hi - lo) / 2
                if _shift(mid, tz, day_start_hour) == segments[-1][1]:
                    lo = mid
                else:
                    hi = mid
            hi = hi.replace(microsecond=0)
            segments.append((hi, _shift(hi, tz, day_start_hour)))
        t = nxt
    return segments


def day_of(moment: datetime, tz_name: str, day_start_hour: int) -> int:
    """Python's version of the database expression (for tests and small lists)."""
    shift = _shift(moment, user_zone(tz_name), day_start_hour)
    return (int(moment.astimezone(timezone.utc).timestamp()) + shift) // 86400


# ---- charts -----------------------------------------------------------------------------

@dataclass(frozen=True)
class HeatCell:
    day: date
    count: int
    level: int  # 0 (none) .. 4 (most)
    x: int
    y: int


@dataclass(frozen=True)
class Heatmap:
    cells: list[HeatCell]
    weeks: int
    total: int
    max_count: int
    active_days: int
    cell: int = 14
    gap: int = 3
    month_labels: list[tuple[int, str]] = field(default_factory=list)  # (x, "Mar")

    @property
    def width(self) -> int:
        return 50 + self.weeks * (self.cell + self.gap)

    @property
    def height(self) -> int:
        return 20 + 7 * (self.cell + self.gap)


def level(count: int, max_count: int) -> int:
    if count <= 0 or max_count <= 0:
        return 0
    return min(4, 1 + (4 * (count - 1)) // max_count)


def heatmap(counts: Mapping[date, int], today: date, days: int = HEATMAP_DAYS,
            month_label: Callable[[date], str] = lambda d: d.strftime("%b")) -> Heatmap:
    """A calendar of the last ``days`` study days ending ``today``: one column per week
    (Monday first), one row per weekday."""
    first = today - timedelta(days=days - 1)
    monday = first - timedelta(days=first.weekday())
    max_count = max((counts.get(first + timedelta(days=i), 0) for i in range(days)), default=0)
    cells, labels, seen_months = [], [], set()
    cell, gap = 14, 3
    for i in range(days):
        d = first + timedelta(days=i)
        week = (d - monday).days // 7
        x, y = 30 + week * (cell + gap), 20 + d.weekday() * (cell + gap)
        n = counts.get(d, 0)
        cells.append(HeatCell(day=d, count=n, level=level(n, max_count), x=x, y=y))
        if (d.year, d.month) not in seen_months and (d.day <= 7 or i == 0):
            seen_months.add((d.year, d.month))
            labels.append((x, month_label(d)))
    weeks = (today - monday).days // 7 + 1
    return Heatmap(cells=cells, weeks=weeks, total=sum(c.count for c in cells), max_count=max_count,
                   active_days=sum(1 for c in cells if c.count), month_labels=labels)


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class BarChart:
    bars: list[Bar]
    width: int
    height: int
    max_value: float
    ticks: list[tuple[float, str]]  # (y, label)
    baseline: float
    left: int = 40


def nice_max(value: float) -> float:
    """A round upper bound for an axis: 1, 2, 5 × 10^k."""
    if value <= 0:
        return 1.0
    magnitude = 1.0
    while magnitude * 10 <= value:
        magnitude *= 10
    while magnitude > value:
        magnitude /= 10
    for step in (1, 2, 5, 10):
        if step * magnitude >= value:
            return step * magnitude
    return 10 * magnitude


def bar_chart(labels: Sequence[str], values: Sequence[float], *, width: int = 640, height: int = 180,
              left: int = 40, bottom: int = 24, top: int = 10) -> BarChart:
    top_value = nice_max(max(values, default=0))
    plot_h = height - bottom - top
    n = max(1, len(values))
    slot = (width - left - 6) / n
    bars = []
    for i, (label, value) in enumerate(zip(labels, values)):
        h = plot_h * value / top_value
        bars.append(Bar(label=label, value=value, x=round(left + i * slot + slot * 0.12, 2),
                        y=round(top + plot_h - h, 2), width=round(slot * 0.76, 2), height=round(h, 2)))
    ticks = [(round(top + plot_h * (1 - f), 2), _fmt(top_value * f)) for f in (0, 0.5, 1)]
    return BarChart(bars=bars, width=width, height=height, max_value=top_value, ticks=ticks,
                    baseline=top + plot_h, left=left)


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def daily_series(values: Mapping[date, float], last: date, days: int) -> list[tuple[date, float]]:
    """``days`` consecutive days ending ``last``, zero where nothing happened."""
    first = last - timedelta(days=days - 1)
    return [(first + timedelta(days=i), values.get(first + timedelta(days=i), 0)) for i in range(days)]


def forecast(due_by_day: Mapping[date, int], today: date, days: int = FORECAST_DAYS) -> list[tuple[date, int]]:
    """Cards due on each of the next ``days`` days; anything overdue counts as due today."""
    out = {today + timedelta(days=i): 0 for i in range(days)}
    for day, n in due_by_day.items():
        key = max(day, today)
        if key in out:
            out[key] += n
    return sorted(out.items())


# ---- retention ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RetentionWeek:
    start: date
    young_passed: int = 0
    young_total: int = 0
    mature_passed: int = 0
    mature_total: int = 0

    @property
    def young(self) -> float | None:
        return self.young_passed / self.young_total if self.young_total else None

    @property
    def mature(self) -> float | None:
        return self.mature_passed / self.mature_total if self.mature_total else None


def retention_weeks(rows: Iterable[tuple[int, bool, int, int]], today: date,
                    weeks: int = RETENTION_WEEKS) -> list[RetentionWeek]:
    """``rows`` are (weeks ago, mature?, passed, total); returns oldest week first. Week 0 is the
    seven study days ending today."""
    acc: dict[int, dict[str, int]] = {w: {} for w in range(weeks)}
    for ago, mature, passed, total in rows:
        if 0 <= ago < weeks:
            kind = "mature" if mature else "young"
            acc[ago][kind + "_passed"] = acc[ago].get(kind + "_passed", 0) + int(passed)
            acc[ago][kind + "_total"] = acc[ago].get(kind + "_total", 0) + int(total)
    return [RetentionWeek(start=today - timedelta(days=7 * ago + 6), **acc[ago]) for ago in reversed(range(weeks))]


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    left: int
    top: int
    plot_w: float
    plot_h: float
    series: dict[str, list[tuple[float, float]]]  # name -> points (x, y), gaps skipped
    target_y: float
    ticks: list[tuple[float, str]]
    x_labels: list[tuple[float, str]]


def retention_chart(weeks: Sequence[RetentionWeek], desired: float, *, width: int = 640, height: int = 200,
                    floor: float = 0.5,
                    day_label: Callable[[date], str] = lambda d: d.strftime("%d %b")) -> LineChart:
    """Young and mature true retention per week on a floor..100 % axis, with the desired line."""
    left, top, bottom = 44, 10, 26
    plot_w, plot_h = width - left - 30, height - top - bottom
    n = max(1, len(weeks) - 1)

    def y(v: float) -> float:
        v = min(1.0, max(floor, v))
        return round(top + plot_h * (1 - (v - floor) / (1 - floor)), 2)

    series: dict[str, list[tuple[float, float]]] = {"young": [], "mature": []}
    labels = []
    for i, w in enumerate(weeks):
        x = round(left + plot_w * i / n, 2)
        for name in series:
            value = getattr(w, name)
            if value is not None:
                series[name].append((x, y(value)))
        if i % 2 == 0 or i == len(weeks) - 1:
            labels.append((x, day_label(w.start)))
    ticks = [(y(v), f"{round(v * 100)}%") for v in (floor, (floor + 1) / 2, 1.0)]
    return LineChart(width=width, height=height, left=left, top=top, plot_w=plot_w, plot_h=plot_h,
                     series=series, target_y=y(desired), ticks=ticks, x_labels=labels)


# ---- card states ---------------------------------------------------------------------------

STATES = ("new", "learning", "review", "relearning")


@dataclass(frozen=True)
class StateCounts:
    new: int = 0
    learning: int = 0
    review: int = 0
    relearning: int = 0
    suspended: int = 0

    @property
    def total(self) -> int:
        return self.new + self.learning + self.review + self.relearning + self.suspended

    def items(self) -> list[tuple[str, int]]:
        return [(s, getattr(self, s)) for s in (*STATES, "suspended")]


def state_counts(rows: Iterable[tuple[str, bool, int]]) -> StateCounts:
    """``rows`` are (state, suspended?, count); suspended cards count as suspended, whatever their state."""
    acc = {s: 0 for s in (*STATES, "suspended")}
    for state, suspended, n in rows:
        acc["suspended" if suspended else state] += int(n)
    return StateCounts(**acc)


def state_bar_chart(counts: StateCounts, width: int = 640,
                    label: Callable[[str], str] = lambda state: state) -> BarChart:
    """Cards per state; ``label`` names a state in the reader's language (the route passes gettext)."""
    items = counts.items()
    return bar_chart([label(s) for s, _ in items], [n for _, n in items], width=width, height=180)


def mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return sum(vals) / len(vals) if vals else None


# ---- answer buttons ------------------------------------------------------------------------

BUTTON_DAYS = 30
BUTTONS = ("again", "hard", "good", "easy")  # ratings 1..4
AGES = ("learning", "young", "mature")       # as Anki: mature once the interval is ≥ 21 days


@dataclass(frozen=True)
class ButtonCounts:
    """How often each button was pressed (Again, Hard, Good, Easy)."""

    counts: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def correct(self) -> int:
        """Answers other than Again, as Anki counts them correct."""
        return self.total - self.counts[0]

    @property
    def share(self) -> float | None:
        return self.correct / self.total if self.total else None

    def items(self) -> list[tuple[str, int]]:
        return list(zip(BUTTONS, self.counts))


@dataclass(frozen=True)
class AnswerButtons:
    by_age: list[tuple[str, ButtonCounts]]   # learning, young, mature
    by_day: list[tuple[date, ButtonCounts]]  # oldest first, every day of the window

    @property
    def total(self) -> int:
        return sum(c.total for _, c in self.by_age)


def answer_buttons(rows: Iterable[tuple[int, str, int, int]], today: date, days: int = BUTTON_DAYS) -> AnswerButtons:
    """``rows`` are (study day number, card age, rating 1–4, answers); days outside the ``days``
    ending ``today``, unknown ages and ratings are left out."""
    first = today - timedelta(days=days - 1)
    by_age = {age: [0, 0, 0, 0] for age in AGES}
    by_day = {first + timedelta(days=i): [0, 0, 0, 0] for i in range(days)}
    for day_n, age, rating, n in rows:
        day = from_day_number(int(day_n))
        if day in by_day and age in by_age and 1 <= rating <= 4:
            by_age[age][rating - 1] += int(n)
            by_day[day][rating - 1] += int(n)
    return AnswerButtons(by_age=[(age, ButtonCounts(tuple(c))) for age, c in by_age.items()],  # type: ignore[arg-type]
                         by_day=[(d, ButtonCounts(tuple(c))) for d, c in by_day.items()])  # type: ignore[arg-type]


@dataclass(frozen=True)
class ButtonBar:
    button: str
    value: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class ButtonChart:
    """Bars coloured by button: side by side within a group (per card age), or stacked (per day)."""

    groups: list[tuple[str, float, list[ButtonBar]]]  # (label, label x, bars)
    width: int
    height: int
    ticks: list[tuple[float, str]]
    baseline: float
    left: int = 40


def _button_axis(top_value: float, top: int, plot_h: float) -> list[tuple[float, str]]:
    return [(round(top + plot_h * (1 - f), 2), _fmt(top_value * f)) for f in (0, 0.5, 1)]


def buttons_by_age_chart(buttons: AnswerButtons, label: Callable[[str], str] = lambda age: age, *,
                         width: int = 640, height: int = 180) -> ButtonChart:
    """Anki's answer-buttons chart: per card age, a bar per button."""
    left, top, bottom = 40, 10, 24
    plot_h = height - top - bottom
    top_value = nice_max(max((n for _, c in buttons.by_age for n in c.counts), default=0))
    slot = (width - left - 6) / len(AGES)
    groups = []
    for i, (age, counts) in enumerate(buttons.by_age):
        bar_w = slot * 0.8 / len(BUTTONS)
        x0 = left + i * slot + slot * 0.1
        bars = [ButtonBar(b, n, round(x0 + j * bar_w, 2), round(top + plot_h * (1 - n / top_value), 2),
                          round(bar_w * 0.9, 2), round(plot_h * n / top_value, 2)) for j, (b, n) in enumerate(counts.items())]
        groups.append((label(age), round(left + i * slot + slot / 2, 2), bars))
    return ButtonChart(groups, width, height, _button_axis(top_value, top, plot_h), top + plot_h, left)


def buttons_by_day_chart(buttons: AnswerButtons, label: Callable[[date], str] = lambda d: d.strftime("%d %b"), *,
                         width: int = 640, height: int = 180) -> ButtonChart:
    """Answers per day, each day's bar stacked by button (Again at the bottom)."""
    left, top, bottom = 40, 10, 24
    plot_h = height - top - bottom
    top_value = nice_max(max((c.total for _, c in buttons.by_day), default=0))
    slot = (width - left - 6) / max(1, len(buttons.by_day))
    groups = []
    for i, (day, counts) in enumerate(buttons.by_day):
        x, y, bars = round(left + i * slot + slot * 0.12, 2), top + plot_h, []
        for b, n in counts.items():
            h = plot_h * n / top_value
            y -= h
            if n:
                bars.append(ButtonBar(b, n, x, round(y, 2), round(slot * 0.76, 2), round(h, 2)))
        shown = i % 5 == 0 or i == len(buttons.by_day) - 1
        groups.append((label(day) if shown else "", round(x + slot * 0.38, 2), bars))
    return ButtonChart(groups, width, height, _button_axis(top_value, top, plot_h), top + plot_h, left)
