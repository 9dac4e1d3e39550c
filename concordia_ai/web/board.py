"""The board drawn as SVG at the printed boards' positions (package data `data/layout/`, see its README).

Provinces are soft coloured regions around their cities, routes run between the cities (land brown,
sea blue and dashed), each city shows its good and the houses built there, colonists stand on their
routes, and each province's bonus marker sits on its banner. Every element a move can be made with
carries `data-el` (the ids of concordia_ai.web.targets), so the page can light up and tap it.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from html import escape
from importlib.resources import files

from ..engine.game import Game

PLAYER_COLORS = ("#d7263d", "#1f6fd1", "#2a9d3a", "#f2b705", "#3a3a3a")
GOOD_COLORS = {"brick": "#b4532a", "food": "#f0c419", "tool": "#7d8b99", "wine": "#7a2c6e", "cloth": "#e58fb1"}
PROVINCE_TINTS = ("#c9a96e", "#8fb98b", "#d49a7a", "#9db4d6", "#c4a3cf", "#d6c46f", "#86c2b8", "#e0a3a3",
                  "#a8b878", "#b59b8a", "#9fc0e0", "#d8b38c")
# Creta's provinces are named by their printed colours
NAMED_TINTS = {"yellow": "#e3cf6a", "red": "#d98b8b", "green": "#8fbf86", "purple": "#b79ad1", "blue": "#8fb0dc",
               "grey": "#a9acb0", "orange": "#e7a86b", "olive": "#aab06a", "brown": "#b48c6e"}
# board width in drawing units: the closest cities come out about 70 units apart on every board
UNITS = {"imperium": 1100, "italia": 1000, "creta": 1200, "aegyptus": 500}
MARGIN = 46
KEY_BOARDS = ("creta", "aegyptus")     # their bonus markers sit in a key beside the map, named there


@lru_cache(maxsize=None)
def layout(board: str) -> dict:
    """The printed positions of one board (read once; shipped with the package)."""
    text = (files("concordia_ai") / "data" / "layout" / f"{board}.json").read_text(encoding="utf-8")
    return json.loads(text)


class Geometry:
    """Board points in drawing units, and the viewBox that holds them all."""

    def __init__(self, board: str):
        lay = layout(board)
        self.w = UNITS.get(board, 1000)
        self.aspect = lay["aspect"]
        self.points = {name: self.xy(p) for name, p in lay["cities"].items()}
        self.points.update({name: self.xy(p) for name, p in lay.get("squares", {}).items()})
        self.provinces = {name: {k: self.xy(v) for k, v in spots.items()}
                          for name, spots in lay.get("provinces", {}).items()}
        every = list(self.points.values()) + [p for spots in self.provinces.values() for p in spots.values()]
        xs, ys = [p[0] for p in every], [p[1] for p in every]
        for name, spots in self.provinces.items():      # a label's text runs half its width each side
            if "label" in spots:
                half = 4.6 * len(name)
                xs += [spots["label"][0] - half, spots["label"][0] + half]
        self.box = tuple(round(v, 1) for v in (min(xs) - MARGIN, min(ys) - MARGIN, max(xs) - min(xs) + 2 * MARGIN,
                                                max(ys) - min(ys) + 2 * MARGIN + 14))

    def xy(self, p) -> tuple[float, float]:
        return round(p[0] * self.w, 1), round(p[1] * self.w / self.aspect, 1)


@lru_cache(maxsize=None)
def geometry(board: str) -> Geometry:
    return Geometry(board)


def route_names(game: Game) -> list[tuple[str, str, str, bool]]:
    """(route 'A-B' as the notation names it, end a, end b, sea?) for every route of the board."""
    c = game.board.cities
    return [(f"{c[a]}-{c[b]}", c[a], c[b], bool(sea)) for a, b, sea, _ in game.board.routes]


def route_id(name: str, sea: bool) -> str:
    return f"route:{'sea' if sea else 'land'}:{name}"


def ends(geo, a: str, z: str, sea: bool, twins: set) -> tuple[float, float, float, float]:
    """A route's two end points; a land and a sea route between the same cities are drawn side by side."""
    (xa, ya), (xz, yz) = geo.points[a], geo.points[z]
    if (a, z) in twins:
        length = math.hypot(xz - xa, yz - ya) or 1.0
        shift = 4.5 if sea else -4.5
        dx, dy = -(yz - ya) / length * shift, (xz - xa) / length * shift
        xa, ya, xz, yz = xa + dx, ya + dy, xz + dx, yz + dy
    return round(xa, 1), round(ya, 1), round(xz, 1), round(yz, 1)


def twin_routes(routes) -> set:
    kinds: dict = {}
    for _, a, z, sea in routes:
        kinds.setdefault((a, z), set()).add(sea)
    return {pair for pair, k in kinds.items() if len(k) == 2}


def svg(game: Game, pos: dict | None = None) -> str:
    """The whole board for the position of `game` as one <svg> element."""
    pos = pos or game.to_json()
    geo = geometry(pos["board"])
    x0, y0, w, h = geo.box
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0} {y0} {w} {h}" class="board" '
           f'role="img" aria-label="{escape(game.board.source.name.title())} board">',
           f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" rx="18" class="bg"/>']
    routes = route_names(game)
    out += _provinces(game, pos, geo, routes)
    out += _routes(geo, routes)
    out += _specials(game, pos, geo)
    names: list[str] = []
    out += _cities(game, pos, geo, names)
    out += _colonists(game, pos, geo, routes)
    out += ['<g class="names">'] + names + ["</g>"]       # above the colonists: every name stays readable
    out += _legend(game, geo)
    out.append("</svg>")
    return "\n".join(out)


def _provinces(game, pos, geo, routes) -> list[str]:
    """A soft region per province (circles round its cities joined along its inner routes), its name,
    and its bonus marker on the printed banner."""
    b = game.board
    province_of = {b.cities[i]: b.provinces[v] for i, v in enumerate(b.city_province) if v >= 0}
    out = []
    for v, name in enumerate(b.provinces):
        tint = NAMED_TINTS.get(name.lower(), PROVINCE_TINTS[v % len(PROVINCE_TINTS)])
        cities = [c for c, p in province_of.items() if p == name and c in geo.points]
        el = escape(f"province:{name}")
        out.append(f'<g class="el province" data-el="{el}"><title>{escape(name)}</title>')
        out.append(f'<g class="region" fill="{tint}" stroke="{tint}">')
        for c in cities:
            x, y = geo.points[c]
            out.append(f'<circle cx="{x}" cy="{y}" r="34"/>')
        for rid, a, z, _ in routes:
            if a in cities and z in cities:
                (xa, ya), (xz, yz) = geo.points[a], geo.points[z]
                out.append(f'<line x1="{xa}" y1="{ya}" x2="{xz}" y2="{yz}" stroke-width="60" stroke-linecap="round"/>')
        out.append("</g>")
        spots = geo.provinces.get(name, {})
        if "label" in spots:
            x, y = spots["label"]
            half = 5.8 * len(name) + 4      # the label's box catches a tap as the region does (its letters are thin)
            out.append(f'<rect x="{round(x - half, 1)}" y="{round(y - 15, 1)}" width="{round(2 * half, 1)}" '
                       f'height="20" rx="4" class="label-hit"/>'
                       f'<text x="{x}" y="{y}" class="province-name">{escape(name.upper())}</text>')
        if "marker" in spots:       # the banner (or the key's square) in the province's colour
            x, y = spots["marker"]
            out.append(f'<rect x="{x - 15}" y="{y - 17}" width="30" height="34" rx="6" class="banner" fill="{tint}"/>')
            if pos["board"] in KEY_BOARDS:
                out.append(f'<text x="{x}" y="{y + 28}" class="key-name">{escape(name)}</text>')
        out += _marker(pos["provinces"].get(name, {}), spots.get("marker"), name)
        out.append("</g>")
    return out


def _marker(info: dict, spot, name: str) -> list[str]:
    """A bonus marker: its good (goods side up) or a coin (turned after a Prefect); '?' when open."""
    if spot is None:
        return []
    x, y = spot
    good, side = info.get("marker"), info.get("side", "goods")
    if good is None:
        return [f'<rect x="{x - 11}" y="{y - 11}" width="22" height="22" rx="4" class="marker-open"/>',
                f'<text x="{x}" y="{y + 5}" class="marker-q">?</text>']
    if side == "coins":
        return [f'<circle cx="{x}" cy="{y}" r="12" class="coin"><title>{escape(name)}: bonus marker on its '
                f'coin side ({escape(good)})</title></circle>',
                f'<text x="{x}" y="{y + 4.5}" class="coin-text">$</text>']
    return [f'<rect x="{x - 11}" y="{y - 13}" width="22" height="26" rx="4" class="marker" '
            f'fill="{GOOD_COLORS.get(good, "#999")}"><title>{escape(name)}: bonus {escape(good)}</title></rect>']


def _routes(geo, routes) -> list[str]:
    out = ['<g class="routes">']
    twins = twin_routes(routes)
    for rid, a, z, sea in routes:
        if a not in geo.points or z not in geo.points:
            continue
        xa, ya, xz, yz = ends(geo, a, z, sea, twins)
        kind = "sea" if sea else "land"
        out.append(f'<g class="el route {kind}" data-el="{escape(route_id(rid, sea))}"><title>{escape(rid)} '
                   f'({kind})</title>'
                   f'<line x1="{xa}" y1="{ya}" x2="{xz}" y2="{yz}" class="road"/>'
                   f'<line x1="{xa}" y1="{ya}" x2="{xz}" y2="{yz}" class="hit"/></g>')
    out.append("</g>")
    return out


def _cities(game, pos, geo, names: list[str]) -> list[str]:
    """Each city: its good token (lettered until the good is known) and its houses; its name goes to
    `names`, drawn last."""
    b = game.board
    houses: dict[str, list[int]] = {}
    for seat, p in enumerate(pos["players"]):
        for c in p["houses"]:
            houses.setdefault(c, []).append(seat)
    letters = "ABCDE"
    out = ['<g class="cities">']
    for i, name in enumerate(b.cities):
        if name not in geo.points or i in b.squares:
            continue
        x, y = geo.points[name]
        el = escape(f"city:{name}")
        v = b.city_province[i]
        alt = f' data-alt="{escape("province:" + b.provinces[v])}"' if v >= 0 else ""
        out.append(f'<g class="el city" data-el="{el}"{alt}>')
        if i == b.start_city:
            out.append(f'<rect x="{x - 17}" y="{y - 17}" width="34" height="34" rx="6" class="capital"/>'
                       f'<path d="M{x - 9} {y + 9} v-8 a9 9 0 0 1 18 0 v8" class="arch"/>')
            names.append(f'<text x="{x}" y="{y + 31}" class="city-name capital-name">{escape(name)}</text>')
        else:
            good = pos["cities"].get(name)
            fill = GOOD_COLORS.get(good, "#f4efe2")
            tip = f"{name}: {good}" if good else name
            out.append(f'<circle cx="{x}" cy="{y}" r="13" class="token" fill="{fill}"><title>{escape(tip)}'
                       f'</title></circle>')
            letter = b.city_letter[i]
            if good is None and 0 <= letter < len(letters):
                out.append(f'<text x="{x}" y="{y + 4}" class="letter">{letters[letter]}</text>')
            names.append(f'<text x="{x}" y="{y + 27}" class="city-name">{escape(name)}</text>')
        out.append(f'<circle cx="{x}" cy="{y}" r="19" class="ring"/>')
        out += _houses(x, y, houses.get(name, []), game.names)
        out.append("</g>")
    out.append("</g>")
    return out


def _houses(x: float, y: float, seats: list[int], names: list[str]) -> list[str]:
    """Small houses in the owners' colours on an arc above the city token."""
    out = []
    n = len(seats)
    for k, seat in enumerate(seats):
        angle = math.radians(-90 + (k - (n - 1) / 2) * 38)
        hx, hy = round(x + 24 * math.cos(angle), 1), round(y + 24 * math.sin(angle), 1)
        tip = escape(names[seat] + "'s house")
        out.append(f'<path d="M{hx - 7} {hy + 6} v-7 l7 -6 l7 6 v7 z" class="house" fill="{PLAYER_COLORS[seat]}">'
                   f'<title>{tip}</title></path>')
    return out


def _colonists(game, pos, geo, routes) -> list[str]:
    """Colonists on routes at the route's middle, side by side; in a city (Roma) beside it."""
    by_id = {(rid, sea): (a, z) for rid, a, z, sea in routes}
    flipped = {f"{z}-{a}": rid for rid, a, z, _ in routes}
    twins = twin_routes(routes)
    spots: dict[tuple, list[tuple[int, str]]] = {}
    for seat, p in enumerate(pos["players"]):
        for kind in ("land", "sea"):
            for place in p["colonists"][kind]:
                if place == "storehouse":
                    continue
                name = flipped.get(place, place)
                key = (name, kind == "sea") if (name, kind == "sea") in by_id else (name, None)
                spots.setdefault(key, []).append((seat, kind))
    out = ['<g class="colonists">']
    for (place, sea), who in spots.items():
        if sea is not None:
            xa, ya, xz, yz = ends(geo, *by_id[(place, sea)], sea, twins)
            cx, cy = (xa + xz) / 2, (ya + yz) / 2
            length = math.hypot(xz - xa, yz - ya) or 1.0
            ux, uy = (xz - xa) / length, (yz - ya) / length
            el = f' data-el="{escape(route_id(place, sea))}"'
        elif place in geo.points:       # in a city (Roma at the start): a small table of pawns beside it
            out += _city_cluster(geo, place, who, game.names)
            continue
        else:
            continue
        out.append(f'<g class="el pawns"{el}>')
        half = 8 * len(who) + 4
        out.append(f'<rect x="{round(cx - half, 1)}" y="{round(cy - 12, 1)}" width="{2 * half}" height="22" rx="8" '
                   f'class="pawn-bed" transform="rotate({round(math.degrees(math.atan2(uy, ux)), 1)} {round(cx, 1)} '
                   f'{round(cy, 1)})"/>')
        for k, (seat, kind) in enumerate(who):
            off = (k - (len(who) - 1) / 2) * 16
            px, py = round(cx + ux * off, 1), round(cy + uy * off, 1)
            out.append(_pawn(px, py, seat, kind, game.names[seat]))
        out.append("</g>")
    out.append("</g>")
    return out


def _city_cluster(geo, city: str, who: list[tuple[int, str]], names: list[str]) -> list[str]:
    """The colonists in a city: a column per player, its land colonists above its sea colonists, one
    figure per kind with "×n" beside it when there are more, and the cluster's total ("×6") on its top
    edge, so the count is read, not guessed from a pile."""
    counts: dict[tuple[int, str], int] = {}
    for seat, kind in who:
        counts[(seat, kind)] = counts.get((seat, kind), 0) + 1
    seats = sorted({seat for seat, _ in who})
    kinds = [k for k in ("land", "sea") if any(kind == k for _, kind in who)]
    many = any(n > 1 for n in counts.values())
    step = 26 if many else 18           # room for a "×n" beside a figure
    cols, rows = len(seats), len(kinds)
    bx, by = _free_side(geo, city, cols * step, rows * 20)
    total = len(who)
    tip = escape(f"{city}: {total} colonist{'s' if total != 1 else ''} ("
                 + ", ".join(f"{names[seat]} {counts[(seat, k)]} {k}" for seat in seats for k in kinds
                             if (seat, k) in counts) + ")")
    out = [f'<g class="el pawns" data-el="{escape("city:" + city)}"><title>{tip}</title>',
           f'<rect x="{round(bx - 3, 1)}" y="{round(by - 18, 1)}" width="{cols * step + 6}" '
           f'height="{rows * 20 + 7}" rx="7" class="pawn-bed"/>']
    for c, seat in enumerate(seats):
        for r, kind in enumerate(kinds):
            n = counts.get((seat, kind), 0)
            if not n:
                continue
            px, py = round(bx + 8 + c * step, 1), round(by + r * 20, 1)
            out.append(_pawn(px, py, seat, kind, names[seat]))
            if n > 1:
                out.append(f'<text x="{round(px + 9, 1)}" y="{round(py + 5, 1)}" class="pawn-n">×{n}</text>')
    out.append(f'<text x="{round(bx + cols * step / 2, 1)}" y="{round(by - 21, 1)}" class="pawn-count">×{total}</text>')
    out.append("</g>")
    return out


def _free_side(geo, city: str, w: float, h: float) -> tuple[float, float]:
    """The top-left corner (bx, by) for the cluster of `_city_cluster` (w x h of figures) beside `city`:
    the nearest place around it that covers no city, no city's houses or name, no bonus marker and no
    province name; where every place covers something, the one that covers least. The cluster's box, as
    drawn: its bed from by - 18 to by - 11 + h, its count above it from by - 32, bx - 3 to bx + w + 3."""
    x, y = geo.points[city]
    obstacles = [(x - 19, y - 19, x + 19, y + 19), _name_box(city, x, y)]
    for name, (ox, oy) in geo.points.items():
        if name != city:
            obstacles += [(ox - 24, oy - 31, ox + 24, oy + 19), _name_box(name, ox, oy)]
    for name, spots in geo.provinces.items():
        if "marker" in spots:
            mx, my = spots["marker"]
            obstacles.append((mx - 13, my - 15, mx + 13, my + 15))
        if "label" in spots:
            lx, ly = spots["label"]
            half = 4.6 * len(name)
            obstacles.append((lx - half, ly - 11, lx + half, ly + 3))

    def cost(bx: float, by: float) -> float:
        box = (bx - 3, by - 32, bx + w + 3, by - 11 + h)
        return sum(max(0.0, min(box[2], o[2]) - max(box[0], o[0])) * max(0.0, min(box[3], o[3]) - max(box[1], o[1]))
                   for o in obstacles)

    best = None
    for gap in (24, 34, 46, 60):
        for k in range(16):
            a = math.radians(22.5 * k)
            cx, cy = x + math.cos(a) * (gap + (w + 6) / 2), y + math.sin(a) * (gap + (h + 21) / 2)
            bx, by = cx - w / 2, cy - (h + 21) / 2 + 32      # the box's centre at (cx, cy)
            key = (cost(bx, by), gap)
            if best is None or key < best[0]:
                best = (key, (bx, by))
        if best[0][0] == 0:
            break
    return best[1]


def _name_box(name: str, x: float, y: float) -> tuple[float, float, float, float]:
    """Where a city's name is written (under its token, 10.5 px semi-bold: at most about 6.8 units a letter)."""
    half = 3.4 * len(name) + 3
    return (x - half, y + 18, x + half, y + 31)


def _pawn(x: float, y: float, seat: int, kind: str, name: str) -> str:
    color = PLAYER_COLORS[seat]
    tip = f"<title>{escape(name)}: {kind} colonist</title>"
    if kind == "sea":      # a boat
        return (f'<path d="M{x - 9} {y - 1} h18 l-4 7 h-10 z M{x - 1} {y - 1} v-9 l7 7 z" class="pawn" '
                f'fill="{color}">{tip}</path>')
    return (f'<path d="M{x} {y - 10} a4 4 0 1 1 0.1 0 z M{x - 7} {y + 7} q0 -11 7 -11 q7 0 7 11 z" class="pawn" '
            f'fill="{color}">{tip}</path>')


def _specials(game, pos, geo) -> list[str]:
    """Aegyptus: the FRANKINCENSE and GOLD squares and the Nile food marker; Creta: the '?' square of
    the variable bonus and the 2-coin square."""
    lay = layout(pos["board"])
    out = []
    for name, p in lay.get("squares", {}).items():
        x, y = geo.xy(p)
        if name == "gavdos_bonus":
            continue        # the Brown province's marker spot: drawn as its marker
        if name == "extra_cash":
            out.append(f'<circle cx="{x}" cy="{y}" r="15" class="coin"><title>2 more coins with every cash '
                       f'bonus</title></circle><text x="{x}" y="{y + 5}" class="coin-text">+2</text>')
            continue
        el = escape(f"city:{name}")
        out.append(f'<g class="el square" data-el="{el}"><circle cx="{x}" cy="{y}" r="16" class="special"/>'
                   f'<text x="{x}" y="{y + 30}" class="city-name">{escape(name.title())}</text>'
                   f'<title>{escape(name.title())}: 7 VP at the end for a sea colonist there</title></g>')
    nile = pos.get("nile_marker")
    for province, spots in lay.get("provinces", {}).items():
        if "nile_food" in spots:
            x, y = geo.xy(spots["nile_food"])
            on = province == nile
            out.append(f'<rect x="{x - 9}" y="{y - 9}" width="18" height="18" rx="3" '
                       f'class="nile{" nile-on" if on else ""}"><title>Nile flood: {escape(province)}'
                       f'{" (the food marker is here)" if on else ""}</title></rect>')
    return out


def _legend(game, geo) -> list[str]:
    """The goods' colours and prices, bottom left."""
    x0, y0, _, h = geo.box
    y = y0 + h - 16
    out = ['<g class="legend">']
    x = x0 + 16
    for good, price in zip(game.rules.goods, game.rules.price):
        out.append(f'<circle cx="{x + 7}" cy="{y - 4}" r="7" fill="{GOOD_COLORS[good]}" class="token"/>'
                   f'<text x="{x + 18}" y="{y}" class="legend-text">{good} {price}</text>')
        x += 78
    out.append("</g>")
    return out
