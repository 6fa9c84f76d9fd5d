"""The files `pnp new` writes: a small working project whose comments teach the format.

Text only (the fonts are copied from ReportLab's own Bitstream Vera files by the command).
"""

from __future__ import annotations

GAME = """\
# Lantern Market: a starter project made by `pnp new`. Change anything, then run
#   pnp check     every problem as file:line: field: problem (nothing is written)
#   pnp build     card sheets, backs, the rule booklet and a checklist in output/
#   pnp layouts   every built-in layout and its slots, if you would rather not draw your own
#
# A project is a folder: card_data/ (one YAML database per game, and its
# spreadsheets), templates/ (rule booklets), art/ (pictures; art/symbols/ holds
# your own symbols) and fonts/ (fonts.yaml names a TrueType file per role).
#
# The game is written in English and German (game.languages; the first is the
# default). Any text may be given per language, {en: ..., de: ...}; in the
# spreadsheet, columns such as name@de hold the German. `pnp build --lang de`
# writes output/lanterns/de/, `pnp check` finds every text missing or too long in
# either language, and templates/rules.de.md.j2 is the German booklet.

game:
  name: Lantern Market
  tag: LM                    # two capitals; every card's collation code starts with them (LM-moth)
  players: {min: 2, max: 4}
  version: "0.1"             # printed beside every code; `pnp build --tag round1` remembers a print
  languages: [en, de]
  summary:
    en: >-
      A tiny trading game, here to be copied from: trade lights at the night
      market and hold the brightest hand when the last card is played.
    de: >-
      Ein winziges Tauschspiel zum Abschauen: Tauscht Lichter auf dem Nachtmarkt
      und haltet die hellste Hand, wenn die letzte Karte gespielt ist.

style:                       # colours the built-in layouts use; a custom layout picks its own
  ink: "#1f1a2b"
  paper: "#fbf6ea"
  accent: "#b5562b"

# Lookup tables that templates read, e.g. {{ palettes.suit[card.suit].color }}.
palettes:
  suit:
    moon: {light: "#6d7bb3", color: "#3f4f8c", name: {en: Moon, de: Mond}}
    sun: {light: "#dba04e", color: "#c7801e", name: {en: Sun, de: Sonne}}
    star: {light: "#9c68ad", color: "#7a3f8c", name: {en: Star, de: Stern}}
    leaf: {light: "#6a9c74", color: "#3f7a4a", name: {en: Leaf, de: Blatt}}

# A face design is a layout and its slots. Strings are jinja2 templates that see
# `card` (the card's fields), `palettes`, `game` and `mark`.
faces:
  lantern:
    # `custom`: you draw the card from elements, in order, in millimetres from the
    # top-left corner of the trim (frame: trim), the safe zone 3 mm inside it (frame:
    # safe) or the bleed (frame: bleed); y runs down. `when:` draws an element only
    # when its expression is true. Elements: rect, round_rect, ellipse, polygon, star,
    # hex, hexgrid, line, path (d: SVG path data), text, paragraph, image, symbol,
    # pattern, qr, group; any takes opacity, shapes take linear-gradient(...) fills.
    layout: custom
    slots:                   # a custom design names its own slots; elements read them as slots.NAME
      colour: "{{ palettes.suit[card.suit].color }}"
      code_color: "#ffffff"  # the collation code at the bottom, white on the coloured band
    elements:
      - {type: rect, frame: bleed, fill: "{{ slots.colour }}"}
      - {type: pattern, frame: bleed, symbol: "{{ card.suit }}", step: 9, size: 3, stagger: true,
         fill: "{{ palettes.suit[card.suit].light }}"}
      - {type: round_rect, frame: safe, h: 75, radius: 3, fill: "#fbf6ea", stroke: "{{ slots.colour }}", stroke_width: 0.5}
      - {type: text, frame: safe, x: 2.5, y: 2.5, w: 9, h: 8, text: "{{ card.value }}", font: display, size: 18, align: center}
      - {type: symbol, frame: safe, x: 3.5, y: 11.5, w: 7, h: 7, symbol: "{{ card.suit }}", fill: "{{ slots.colour }}"}
      - {type: text, frame: safe, x: 12, y: 3, w: 40, h: 8, text: "{{ card.name }}", font: display, size: 12, min_size: 8, align: center}
      - {type: line, frame: safe, x: 12, y: 12, x2: 52, y2: 12, stroke: "{{ slots.colour }}", stroke_width: 0.4}
      # One picture for every card; write file: "art/{{ card.key }}.svg" for one per card.
      - {type: image, frame: safe, x: 9, y: 16, w: 39, h: 34, file: art/lantern.svg, fit: contain}
      # Card text takes **bold**, *italic*, {sun} icons (any symbol name) and line breaks;
      # it shrinks to fit down to min_size, and `pnp check` reports text that still overflows.
      - {type: paragraph, frame: safe, x: 4, y: 53, w: 49, h: 20, text: "{{ card.text }}", font: serif, size: 8.5, min_size: 6.5, align: center, valign: middle}
      - {type: text, frame: safe, x: 4, y: 69.5, w: 49, h: 5, text: "*{{ palettes.suit[card.suit].name }}*", font: serif, size: 7, align: center, fill: "{{ slots.colour }}", when: "card.value > 0"}

backs:
  night:
    layout: back             # a built-in layout: its slots are listed by `pnp layouts`
    slots:
      title: Lantern Market
      subtitle: {en: trade by moonlight, de: Handel im Mondschein}
      color: "#2b2440"
      accent: "#e0b45a"
      emblem: sun
      pattern: star

components:
  - key: deck
    kind: deck
    name: {en: Lantern deck, de: Laternenstapel}
    doc: Every card of the game.
    card_size: poker         # or bridge, tarot, mini, square, or WxH in mm such as 70x120
    face: lantern
    back: night
    fields:                  # what every card carries besides key, name, copies and text
      value: {type: int, doc: points at the end of the game}
      suit: {type: str, choices: [moon, sun, star, leaf], doc: the light's kind}
    # The cards come from a spreadsheet beside this file (CSV or XLSX): one row per
    # card type; the columns are key, name, copies, text and the fields above, and
    # name@de and text@de for the German.
    cards: {from: lanterns.csv}
    # Rules `pnp check` proves on every build, so a typo in the spreadsheet cannot
    # quietly change the game.
    rules:
      - {id: deck-size, check: total, expected: 20, describe: the deck has 20 cards}
      - id: suits
        check: count_by
        field: suit
        expected: {moon: 6, sun: 8, star: 4, leaf: 2}
        describe: six moons, eight suns, four stars and two leaves
      - id: deal
        check: expr          # a jinja2 expression, checked for every combination of params
        expr: "deck.count() >= players * 4 + 4"
        params: {players: [2, 3, 4]}
        describe: four cards per player and at least four left to draw

  - key: rules
    kind: booklet
    name: {en: Rules, de: Spielregel}
    template: rules.md.j2    # templates/rules.md.j2 (and rules.de.md.j2): text that reads its numbers from here
"""

CARDS = """\
key,name,copies,value,suit,text,name@de,text@de
moth,Glow Moth,6,1,moon,Worth **1**. Two {moth} played together count as one {star}.,Leuchtmotte,Zählt **1**. Zwei {moth} zusammen gespielt zählen wie ein {star}.
paper,Paper Lantern,5,2,sun,"Worth **2**. *Fragile:* a Night Wind blows it out.",Papierlaterne,Zählt **2**. *Zerbrechlich:* Ein Nachtwind bläst sie aus.
jar,Firefly Jar,4,3,star,Worth **3**. You may play it on another player's turn.,Glühwürmchenglas,Zählt **3**. Du darfst es im Zug eines anderen spielen.
beacon,Harbour Beacon,3,5,sun,Worth **5**. The brightest light in the market.,Hafenfeuer,Zählt **5**. Das hellste Licht auf dem Markt.
wind,Night Wind,2,0,leaf,"Blow out one {sun} card on the table.
Its owner discards it.",Nachtwind,"Lösche eine {sun}-Karte auf dem Tisch.
Ihr Besitzer wirft sie ab."
"""

BOOKLET = """\
{#- The rule booklet: jinja2 renders this file with the database, then the text is
    laid out. # headings, **bold**, *italic*, - lists, | tables |, > asides and
    [[cards KEY ...]] pictures of cards. Every number below comes from the database,
    so the rules can never disagree with the cards. -#}
{%- set deck = component('deck') -%}
# {{ game.name }}

{{ game.summary }}

## What you need

- The {{ deck.name }}: {{ deck.count }} cards of {{ deck.kinds }} kinds.
- {{ game.players.min }} to {{ game.players.max }} players.

## The cards

| Card | Copies | Worth |
|------|--------|-------|
{% for c in cards('deck') -%}
| {{ c.name }} | {{ c.copies }} | {{ c.value }} |
{% endfor %}

[[cards moth paper jar beacon wind caption=name]]

## Playing

1. Shuffle the deck and deal four cards to each player.
2. On your turn, play one card face up in front of you, then draw one.
3. A Night Wind removes one Sun card that is on the table.
4. When the deck runs out, everyone adds up the worth of their cards;
   the highest total wins.

> There are {{ count('deck', suit='sun') }} Sun cards and only
> {{ count('deck', key='wind') }} Night Winds: keep one for the end.
"""

BOOKLET_DE = """\
{#- Die Spielregel auf Deutsch: dieselbe Datenbank, dieselben Zahlen, nur die Sätze
    sind übersetzt. Fehlt diese Datei, druckt die deutsche Ausgabe die englische Regel
    (und `pnp check` meldet es). -#}
{%- set deck = component('deck') -%}
# {{ game.name }}

{{ game.summary }}

## Was ihr braucht

- Den {{ deck.name }}: {{ deck.count }} Karten in {{ deck.kinds }} Sorten.
- {{ game.players.min }} bis {{ game.players.max }} Spieler.

## Die Karten

| Karte | Anzahl | Wert |
|-------|--------|------|
{% for c in cards('deck') -%}
| {{ c.name }} | {{ c.copies }} | {{ c.value }} |
{% endfor %}

[[cards moth paper jar beacon wind caption=name]]

## So wird gespielt

1. Mischt den Stapel und gebt jedem vier Karten.
2. In deinem Zug legst du eine Karte offen vor dir aus und ziehst eine nach.
3. Ein Nachtwind entfernt eine Sonnenkarte vom Tisch.
4. Ist der Stapel aufgebraucht, zählt jeder den Wert seiner Karten zusammen;
   die höchste Summe gewinnt.

> Es gibt {{ count('deck', suit='sun') }} Sonnenkarten und nur
> {{ count('deck', key='wind') }} Nachtwinde: Hebt euch einen fürs Ende auf.
"""

ART = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100mm" height="100mm">
  <!-- A paper lantern, drawn as plain shapes: replace this file with your own picture
       (PNG, JPEG or SVG; SVG stays sharp at any size, pictures need 300 dpi). -->
  <circle cx="50" cy="54" r="40" fill="#f6d98a" opacity="0.45"/>
  <rect x="46" y="4" width="8" height="10" fill="#3b2f25"/>
  <rect x="34" y="14" width="32" height="6" rx="2" fill="#3b2f25"/>
  <ellipse cx="50" cy="52" rx="26" ry="32" fill="#e8833a"/>
  <ellipse cx="50" cy="52" rx="14" ry="32" fill="#f2a94e"/>
  <ellipse cx="50" cy="52" rx="4" ry="32" fill="#f9cf74"/>
  <rect x="34" y="82" width="32" height="6" rx="2" fill="#3b2f25"/>
  <rect x="48" y="88" width="4" height="8" fill="#3b2f25"/>
</svg>
"""

MOTH = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <!-- Your own symbol: any SVG in art/symbols/ is a symbol named after its file
       (here `moth`), usable wherever a built-in one is: {moth} in card text, a
       symbol element, an emblem. It is drawn in one colour, so shapes are enough. -->
  <ellipse cx="31" cy="38" rx="22" ry="17" transform="rotate(-25 31 38)"/>
  <ellipse cx="69" cy="38" rx="22" ry="17" transform="rotate(25 69 38)"/>
  <ellipse cx="36" cy="66" rx="13" ry="10" transform="rotate(30 36 66)"/>
  <ellipse cx="64" cy="66" rx="13" ry="10" transform="rotate(-30 64 66)"/>
  <ellipse cx="50" cy="52" rx="6" ry="24"/>
</svg>
"""

FONTS = """\
# Font roles: each names a TrueType file in this folder. Layouts use them by role
# (display for titles, serif for text...), and **bold** / *italic* in card text
# switch to the bold and italic roles. These are the Bitstream Vera fonts that
# come with ReportLab (free to embed; licence in bitstream-vera-license.txt).
# Put your own .ttf files here and name them below to change the look.
roles:
  body: Vera.ttf
  bold: VeraBd.ttf
  italic: VeraIt.ttf
  display: VeraBd.ttf
  serif: Vera.ttf
  serif-italic: VeraIt.ttf
  condensed: VeraBd.ttf
"""

FILES: dict[str, str] = {
    "card_data/lanterns.yaml": GAME,
    "card_data/lanterns.csv": CARDS,
    "templates/rules.md.j2": BOOKLET,
    "templates/rules.de.md.j2": BOOKLET_DE,
    "art/lantern.svg": ART,
    "art/symbols/moth.svg": MOTH,
    "fonts/fonts.yaml": FONTS,
}
FONT_FILES = ("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf", "bitstream-vera-license.txt")
