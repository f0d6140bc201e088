#!/usr/bin/env bash
# Developer step (not CI, not a user's set-up): the extra SST-2 models the EFSG transfer and adversarial-training
# figures use, trained from scratch into models/extra/ (git-ignored; the package ships only the demo models).
#   seed14  — demo-sst2's recipe with another seed
#   large   — 4 layers instead of 2
#   adv     — demo-sst2's recipe (seed 13) plus the fooling sentences of runs/fool-sst2 labelled negative
# Needs Debian's python3-torch (see README) and ../shared/data. Each model takes 3–10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
CLI="node bin/textstress.mjs"
TRAIN=../shared/data/sst2/train.tsv
mkdir -p models/extra runs
[ -d models/extra/demo-sst2-seed14 ] || $PY scripts/train/train_bert.py --task sst2 --seed 14 --out models/extra/demo-sst2-seed14
[ -d models/extra/demo-sst2-large ] || $PY scripts/train/train_bert.py --task sst2 --layers 4 --out models/extra/demo-sst2-large
# The fooling sentences of the original model (the issue's run), then the retrained model.
[ -f runs/fool-sst2/summary.json ] || $CLI fool --model models/demo-sst2 --train "$TRAIN" --population 500 --length 9 --epochs 50 --seed 0 --out runs/fool-sst2 --overwrite
$CLI fool-augment --from runs/fool-sst2 --out models/extra/fooling-sst2.tsv
[ -d models/extra/demo-sst2-adv ] || $PY scripts/train/train_bert.py --task sst2 --extra-train models/extra/fooling-sst2.tsv --out models/extra/demo-sst2-adv
