"""The operators' dashboard and alert rules (``docs/grafana/``) query only metrics garnet
exports (``bot.core.metrics``: its registry, as Prometheus names the samples), and the
operators' page lists every metric."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from bot.core.metrics import LIVE_GAUGES, REGISTRY, exported

ROOT = Path(__file__).resolve().parents[1]
DASHBOARD = ROOT / "docs" / "grafana" / "garnet.json"
RULES = ROOT / "docs" / "grafana" / "alerts.yml"
OPERATING = ROOT / "docs" / "operating.md"

# PromQL words that are not metric names (modifiers and operators).
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and",
            "or", "unless", "offset", "inf", "nan"}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # strings (label values)
    expr = re.sub(r"\{[^}]*\}", "", expr)  # label matchers
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # ranges and subqueries
    expr = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "",
                  expr)
    names = set()
    for found in re.finditer(r"(?<![\w.$])[A-Za-z_:][\w:]*", expr):
        if expr[found.end():].lstrip().startswith("("):
            continue  # a function or an aggregation
        if found.group() not in KEYWORDS:
            names.add(found.group())
    return names


def panel_exprs(dashboard: dict[str, Any]) -> list[tuple[str, str]]:
    found = []
    for panel in dashboard["panels"]:
        found += [(panel["title"], t["expr"]) for t in panel.get("targets", [])]
        for inner in panel.get("panels", []):  # rows
            found += [(inner["title"], t["expr"]) for t in inner.get("targets", [])]
    for variable in dashboard.get("templating", {}).get("list", []):
        query = variable.get("query")
        if isinstance(query, str) and query.startswith("label_values("):
            found.append((variable["name"], query.split("(", 1)[1].split(",")[0]))
    return found


def rule_exprs(rules: dict[str, Any]) -> list[tuple[str, str]]:
    return [(rule.get("alert") or rule["record"], rule["expr"])
            for group in rules["groups"] for rule in group["rules"]]


def test_the_extractor_finds_names_and_skips_functions() -> None:
    assert metric_names('histogram_quantile(0.99, sum by (le, part) (rate('
                        'garnet_board_latency_seconds_bucket{part="bot"}[5m]))) > 2'
                        ) == {"garnet_board_latency_seconds_bucket"}
    assert metric_names("increase(garnet_nope_total[$__rate_interval]) > 0 and "
                        "on (instance) up") == {"garnet_nope_total", "up"}


def test_every_panel_queries_only_exported_metrics() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    exprs = panel_exprs(dashboard)
    assert len(exprs) >= 10
    known = exported()
    for title, expr in exprs:
        names = metric_names(expr)
        assert names, f"panel {title!r}: no metric in {expr!r}"
        assert names <= known, f"panel {title!r} queries {sorted(names - known)}"


def test_every_alert_rule_queries_only_exported_metrics() -> None:
    rules = yaml.safe_load(RULES.read_text(encoding="utf-8"))
    exprs = rule_exprs(rules)
    alerts = {name for name, _ in exprs}
    assert {"GarnetLeaseLost", "GarnetRateLimitStorm", "GarnetBoardsSlow",
            "GarnetRemindersLate", "GarnetGatewayDown"} <= alerts
    known = exported()
    for name, expr in exprs:
        names = metric_names(expr)
        assert names and names <= known, f"rule {name} queries {sorted(names - known)}"


def test_the_operators_page_lists_every_metric() -> None:
    page = OPERATING.read_text(encoding="utf-8")
    families = {f.name for f in REGISTRY.collect()} | set(LIVE_GAUGES)
    own = {name for name in families if not name.startswith("garnet_process_")}
    counters = {f.name for f in REGISTRY.collect() if f.type == "counter"}
    missing = sorted(name + ("_total" if name in counters else "") for name in own
                     if (name + ("_total" if name in counters else "")) not in page)
    assert not missing, f"docs/operating.md does not name {missing}"
