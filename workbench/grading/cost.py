"""Token totals and their cost: what a run's calls used, as the providers reported it, priced by a
table the user keeps (none is shipped as truth: prices change and differ by account).

A price table is TOML, in currency units per million tokens:

    currency = "USD"          # optional label (default USD)
    batch_factor = 0.5        # optional: what batch calls cost relative to live ones (default 0.5)

    [readers."openai:gpt-4o"]
    input = 2.50
    output = 10.00
    cached_input = 1.25       # optional (default: input)
    batch_factor = 0.5        # optional, for this reader

    [readers."anthropic:*"]   # any model of a provider that has no entry of its own
    input = 3.00
    output = 15.00
    cache_write = 3.75        # optional: Anthropic's cache creation (default: input)

Output is billed on what the provider billed as output: `total_tokens - input_tokens` where both
are known (Gemini's thinking tokens come on top of its output tokens; OpenAI's reasoning is inside
them), else `output_tokens`. Cache reads are inside `input_tokens` for OpenAI and Gemini and apart
for Anthropic (see `USAGE_KEYS` in core/runs.py). Answers served from the answer cache cost nothing.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core import files
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord, billed_reader
from workbench.core.schema import JSONObject

DEFAULT_BATCH_FACTOR = 0.5
PRICE_KEYS = ("input", "output", "cached_input", "cache_write", "batch_factor")
# Providers whose input_tokens do not include the cache reads (they are billed beside them).
CACHE_APART = frozenset({"anthropic"})


@dataclass(frozen=True)
class Price:
    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None
    batch_factor: float = DEFAULT_BATCH_FACTOR


@dataclass
class PriceTable:
    readers: dict[str, Price]
    currency: str = "USD"
    source: str = ""

    def price(self, reader: str) -> Price | None:
        """The reader's own entry, else its provider's `provider:*`; an agent reader's, else its
        model's (its turns are calls of that model)."""
        for name in dict.fromkeys((reader, billed_reader(reader))):
            found = self.readers.get(name) or self.readers.get(name.partition(":")[0] + ":*")
            if found:
                return found
        return None


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise UserError(f"{where}: give a number of at least 0 (currency units per million tokens)")
    return float(value)


def load_prices(path: Path) -> PriceTable:
    """The price table in `path`; a missing or malformed one is a UserError naming what to fix."""
    path = Path(path)
    if not path.exists():
        raise UserError(f"--prices {path}: no such file (the README shows the table's shape)")
    try:
        raw = tomllib.loads(files.read_text(path, "TOML price table"))
    except UserError as exc:
        raise UserError(f"--prices {exc}") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"--prices {path}: not a TOML price table ({exc})") from None
    factor = _number(raw.get("batch_factor", DEFAULT_BATCH_FACTOR), f"{path}: batch_factor")
    readers = raw.get("readers")
    if not isinstance(readers, dict) or not readers:
        raise UserError(f'{path}: no [readers."provider:model"] tables; the README shows the shape')
    table: dict[str, Price] = {}
    for reader, entry in readers.items():
        where = f'{path}: [readers."{reader}"]'
        if ":" not in reader or not isinstance(entry, dict):
            raise UserError(f"{where}: name a reader as provider:model (or provider:*) with input and output prices")
        unknown = sorted(set(entry) - set(PRICE_KEYS))
        if unknown:
            raise UserError(f"{where}: unknown key {', '.join(unknown)}; known: {', '.join(PRICE_KEYS)}")
        if "input" not in entry or "output" not in entry:
            raise UserError(f"{where}: input and output prices are required")
        table[reader] = Price(
            _number(entry["input"], f"{where}.input"), _number(entry["output"], f"{where}.output"),
            _number(entry["cached_input"], f"{where}.cached_input") if "cached_input" in entry else None,
            _number(entry["cache_write"], f"{where}.cache_write") if "cache_write" in entry else None,
            _number(entry.get("batch_factor", factor), f"{where}.batch_factor"))
    return PriceTable(table, str(raw.get("currency") or "USD"), str(path))


def _int(usage: Mapping[str, Any], key: str) -> int:
    value = usage.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def billed_output(usage: Mapping[str, Any]) -> int:
    total, inp = usage.get("total_tokens"), usage.get("input_tokens")
    if isinstance(total, int) and isinstance(inp, int) and total >= inp:
        return total - inp
    return _int(usage, "output_tokens")


def call_cost(reader: str, usage: Mapping[str, Any], price: Price, batch: bool = False) -> float:
    """One call's cost from its reported usage."""
    cached = _int(usage, "cache_read_tokens")
    written = _int(usage, "cache_creation_tokens")
    inp = _int(usage, "input_tokens")
    full = inp if billed_reader(reader).partition(":")[0] in CACHE_APART else max(0, inp - cached)
    dollars = (full * price.input + cached * (price.cached_input if price.cached_input is not None else price.input)
               + written * (price.cache_write if price.cache_write is not None else price.input)
               + billed_output(usage) * price.output) / 1_000_000
    return dollars * (price.batch_factor if batch else 1.0)


def is_batch(record: RunRecord) -> bool:
    return bool(record.extra.get("batch"))


@dataclass
class TokenTotals:
    """What a run's calls used: tokens as reported, and their cost when a price is known."""

    calls: int = 0
    reported: int = 0            # calls that reported usage
    from_cache: int = 0          # answers the answer cache gave (no call, no cost)
    batch_calls: int = 0
    input: int = 0
    output: int = 0
    cached: int = 0
    reasoning: int = 0
    cost: float | None = None    # None: no price table, or no price for this reader
    unpriced: int = 0            # calls with usage but no price
    currency: str = "USD"
    readers: list[str] = field(default_factory=list)

    def add(self, record: RunRecord, prices: PriceTable | None = None) -> None:
        self.calls += 1
        if record.extra.get("cached"):
            self.from_cache += 1
            return
        if str(record.reader) not in self.readers:
            self.readers.append(str(record.reader))
        usage = record.usage if isinstance(record.usage, dict) else None
        if not usage:
            return
        self.reported += 1
        self.batch_calls += is_batch(record)
        self.input += _int(usage, "input_tokens")
        self.output += _int(usage, "output_tokens")
        self.cached += _int(usage, "cache_read_tokens")
        self.reasoning += _int(usage, "reasoning_tokens")
        if prices is None:
            return
        self.currency = prices.currency
        price = prices.price(str(record.reader))
        if price is None:
            self.unpriced += 1
            return
        self.cost = (self.cost or 0.0) + call_cost(str(record.reader), usage, price, is_batch(record))

    def to_json(self) -> JSONObject:
        return {"calls": self.calls, "reported_usage": self.reported, "from_cache": self.from_cache,
                "batch_calls": self.batch_calls, "input_tokens": self.input, "output_tokens": self.output,
                "cached_tokens": self.cached, "reasoning_tokens": self.reasoning,
                "cost": None if self.cost is None else round(self.cost, 6), "unpriced_calls": self.unpriced,
                "currency": self.currency}

    def lines(self) -> list[str]:
        """The report's token and cost lines."""
        if not self.reported:
            return []   # probes and imported runs report none: nothing to say
        out = [f"  tokens      {kilo(self.input)} in ({kilo(self.cached)} cached), {kilo(self.output)} out "
               f"({kilo(self.reasoning)} reasoning); {self.reported} of {self.calls} calls reported usage"
               + (f", {self.from_cache} answered from the cache" if self.from_cache else "")]
        if self.cost is not None:
            batch = f"; {self.batch_calls} batch calls at the batch price" if self.batch_calls else ""
            unpriced = f"; {self.unpriced} calls have no price" if self.unpriced else ""
            out.append(f"  cost        {money(self.cost, self.currency)}{batch}{unpriced}")
        elif self.unpriced:
            out.append(f"  cost        no price for {', '.join(self.readers)} in the price table")
        return out


def kilo(n: int) -> str:
    return f"{n / 1_000_000:.2f}M" if n >= 1_000_000 else f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def money(amount: float, currency: str = "USD") -> str:
    sign = "$" if currency == "USD" else f"{currency} "
    return f"{sign}{amount:,.4f}" if amount < 1 else f"{sign}{amount:,.2f}"


def usage_totals(records: Iterable[RunRecord], prices: PriceTable | None = None) -> TokenTotals:
    totals = TokenTotals()
    for r in records:
        totals.add(r, prices)
    return totals
