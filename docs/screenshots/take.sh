#!/bin/sh
# Takes the screenshots of docs/screenshots/ from the real app under Xvfb.
#
#   apt-get install -y --no-install-recommends xvfb xauth imagemagick xdotool
#   cargo build --bin deckwright
#   docs/screenshots/take.sh [path/to/deckwright]
#   SHOTS="editor match" docs/screenshots/take.sh   # only these shots
#
# Each shot runs the debug binary on a fresh temporary catalogue whose saved session
# (screen, search, drafts) is written first, so the app opens on that screen: the same
# restore-on-start a user gets. A shot may then click through the window (CLICKS: "x,y"
# pairs, a few seconds apart; "x,y:5" turns the wheel down one notch there instead of a
# click), as a user would.
set -eu
BIN=${1:-${CARGO_TARGET_DIR:-target}/debug/deckwright}
OUT=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
DISPLAY_NUM=:${SHOT_DISPLAY:-77}
Xvfb "$DISPLAY_NUM" -screen 0 1280x800x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null; rm -rf "$WORK"' EXIT
sleep 2

# shot NAME SESSION_JSON [KEY VALUE]...  (extra app_state rows: drafts)
shot() {
    name=$1; session=$2; shift 2
    case " ${SHOTS:-$name} " in *" $name "*) ;; *) CLICKS=; return 0 ;; esac
    db="$WORK/$name.sqlite"
    DISPLAY=$DISPLAY_NUM "$BIN" --db "$db" >"$WORK/$name.log" 2>&1 &
    pid=$!
    sleep 8
    kill "$pid"; wait "$pid" 2>/dev/null || true
    python3 - "$db" "$session" "$@" <<'PY'
import sqlite3, sys
db, session, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
c = sqlite3.connect(db)
rows = [("session", session)] + list(zip(rest[0::2], rest[1::2]))
c.executemany("INSERT OR REPLACE INTO app_state(key, value) VALUES (?, ?)", rows)
c.execute("""INSERT OR REPLACE INTO saved_doc(kind, name, body) VALUES ('character', 'Esekial', 'game = "arcadia"
name = "Esekial"
icon = "arc-icon-thornling-female"
merits = ["arc-m-bramble-grip", "arc-m-lucky-star", "arc-m-cinder-veil"]
flaws = ["arc-f-short-temper"]
xp_earned = 0
flaws_bought_off = []
')""")
c.execute("INSERT OR REPLACE INTO collection(card_id, quantity) VALUES ('ico-kethra-voss', 2), ('ico-anwen-halloway', 1)")
c.commit()
PY
    DISPLAY=$DISPLAY_NUM "$BIN" --db "$db" >>"$WORK/$name.log" 2>&1 &
    pid=$!
    sleep 10
    for c in ${CLICKS:-}; do
        button=1
        case $c in *:*) button=${c#*:}; c=${c%:*} ;; esac
        DISPLAY=$DISPLAY_NUM xdotool mousemove "${c%,*}" "${c#*,}" click "$button"
        sleep 5
    done
    CLICKS=
    DISPLAY=$DISPLAY_NUM import -window root "$OUT/$name.png"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    echo "wrote $OUT/$name.png"
}

shot browser '{"screen":"Browser","dark":false,"query":"","game_filter":"iconica","selected":"ico-kethra-voss"}'
shot browser-dark '{"screen":"Browser","dark":true,"query":"arc","selected":"ico-anwen-halloway"}'
shot party '{"screen":"Party","dark":false,"match_mode":true}' \
    draft.party-a 'game = "iconica"
name = "Border Watch"
members = ["ico-anwen-halloway", "ico-kethra-voss", "ico-grumbolt"]' \
    draft.party-b 'game = "iconica"
name = "Hill Folk"
members = ["ico-gorm-ashcairn", "ico-grumbolt", "ico-nyx-ellery"]'
shot character '{"screen":"Character","dark":false}' \
    draft.character 'game = "arcadia"
name = "Esekial"
icon = "arc-icon-thornling-female"
merits = ["arc-m-bramble-grip", "arc-m-lucky-star", "arc-m-cinder-veil"]
flaws = ["arc-f-short-temper"]
xp_earned = 0
flaws_bought_off = []'
shot setup '{"screen":"Setup","dark":false}' \
    draft.setup 'game = "arcadia"
name = "Moor run"
[[players]]
character = "Esekial.character.toml"
quests = ["arc-q-a-choice-of-roads"]
waylays = ["arc-w-cog-patrol", "arc-w-rockslide"]
treasures = []
[[players]]
character = ""
quests = ["arc-q-bottle-the-sea-wind"]
waylays = ["arc-w-squall-front"]
treasures = []
[[leagues]]
id = "arc-l-brassgate-ward"
owner = 1
x = 0
y = 0
[[leagues]]
id = "arc-l-gloaming-wood"
owner = 2
x = 1
y = 0
[[leagues]]
id = "arc-l-drowned-chapel"
owner = 1
x = 0
y = 1'
shot squad '{"screen":"Squad","dark":false}' \
    draft.squad 'game = "ruunara"
name = "Ridge Scouts"
mode = "story"
members = ["ru-ardann-smithguard", "ru-bogspawn-slinger"]'
shot print '{"screen":"Print","dark":false,"print_ids":["ico-kethra-voss","ico-anwen-halloway","ico-grumbolt"]}'
# The backs page: tick Backs, then the next page.
CLICKS="235,90 471,153"
shot print-backs '{"screen":"Print","dark":false,"print_ids":["ico-kethra-voss","ico-anwen-halloway","icl-fire-water"]}'
shot editor '{"screen":"Card","dark":false}' \
    draft.card "$(sed 's/name = "Kethra Voss"/name = "Kethra the Bold"/' "$OUT/../../cards/iconica/ico-kethra-voss.toml")"
shot editor-form '{"screen":"Card","dark":false}' \
    draft.card "$(cat "$OUT/../../cards/iconica/ico-kethra-voss.toml")" \
    editor.view form
# The Balance panel and the Balance screen (balance-screen.png), at 1920 x 1080, are
# written by a kittest: cargo test --test app screenshots -- --ignored
shot editor-league '{"screen":"Card","dark":false}' \
    draft.card "$(cat "$OUT/../../cards/arcadia/arc-l-brassgate-ward.toml")" \
    editor.view form
# The league's effects below its square: the form scrolled down (the wheel over the form).
CLICKS="97,115 360,500:5 360,500:5 360,500:5 360,500:5 360,500:5 360,500:5 360,500:5 360,500:5"
shot editor-league-effects '{"screen":"Card","dark":false}' \
    draft.card "$(sed 's/^effects = .*/effects = [ { forbid_merits = ["art"] }, { modify = -1, test = "savvy" }, { trial = { attribute = "might", difficulty = 5 }, on = "rest" } ]/' "$OUT/../../cards/arcadia/arc-l-brassgate-ward.toml")" \
    editor.view form
shot editor-waylay '{"screen":"Card","dark":false}' \
    draft.card "$(cat "$OUT/../../cards/arcadia/arc-w-riddling-heron.toml")" \
    editor.view form
# The Match screen: a 1000-game run (Run), then one watched match (its tab, Play one match).
PARTIES_A='game = "iconica"
name = "Protectorate Wardens"
members = ["ico-teodric-vale", "ico-anwen-halloway", "ico-gorm-ashcairn"]'
PARTIES_B='game = "iconica"
name = "Legion Raiders"
members = ["ico-varek-solenne", "ico-kethra-voss", "ico-nyx-ellery"]'
CLICKS="558,83"
shot match '{"screen":"Match","dark":false,"match_mode":true}' \
    draft.party-a "$PARTIES_A" draft.party-b "$PARTIES_B"
CLICKS="469,51 388,83"
shot match-watch '{"screen":"Match","dark":false,"match_mode":true}' \
    draft.party-a "$PARTIES_A" draft.party-b "$PARTIES_B"
