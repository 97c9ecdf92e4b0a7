#!/usr/bin/env sh
# Draws the README's board pictures again; run it from the repository root after changing how
# boards look, and look at the results at 400 px wide (a phone's width) before committing them.
set -eu
python=${PYTHON:-.venv/bin/python}

# A real PlayTak game as it ended: dove_queen vs NohatCoder, a road for Black (from taktician's
# test data, MIT: tests/tak/real_games/COPYING).
"$python" -m rendering tests/tak/real_games/70709.ptn -o docs/board.png

# Tall stacks: 12 pieces whole in their square (under a smaller top piece), 27 pieces showing
# the top layers in the square over dots, and in full in a strip below.
"$python" -m rendering \
    "x,2,x3,1/1,12,x,2S,x,1/x,1,121211221212121112221212122,x,1C,x/2,x,12,x,1,x/x,2C,1,1,212121122121,2/x6 2 39" \
    --last-move "2e2<11" --players "Alexandria Worthington" "Björn" -o docs/tall-stacks.png
