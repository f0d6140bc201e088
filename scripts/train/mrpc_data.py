"""GLUE MRPC for train_bert.py --task mrpc (demo-mrpc): reading the TSVs, the seeded epoch-selection split, and
the F1 GLUE reports for MRPC (positive class `equivalent`).

The GLUE files start with a UTF-8 BOM and have the header `Quality\t#1 ID\t#2 ID\t#1 String\t#2 String`; labels
0/1 are `not_equivalent`/`equivalent` in that order, as src/data/glue.ts (MRPC_LABELS) names them. GLUE's dev pairs
are not in train.tsv (they were cut from the original MRPC training set), but a few dev sentences also occur in
training pairs; that count is recorded.

Measured 2026-11-23 (seed 13, defaults, 1 thread, --max-minutes 10, shared 2-core machine), no model committed: the
held-out 10% picked epoch 2 in both runs; plain: dev accuracy 0.6912, F1 0.8000 (select 0.7221); --aux-synthetic:
dev 0.7083, F1 0.8065 (select 0.7003); majority class 0.6838. Picked by the select split, the plain run is 0.7 points
above the majority: from scratch on 3.3k pairs the encoder memorises training (loss 0.04 by epoch 12) and dev falls.
"""
import random

MRPC_LABELS = ["not_equivalent", "equivalent"]
HEADER = ["Quality", "#1 ID", "#2 ID", "#1 String", "#2 String"]


def read_mrpc(path):
    """-> list of (sentence 1, sentence 2, label index, (id 1, id 2)); the BOM is dropped, the header checked."""
    rows = []
    with open(path, encoding="utf-8-sig") as f:
        header = f.readline().rstrip("\r\n").split("\t")
        if header != HEADER:
            raise SystemExit(f"{path}: expected the GLUE MRPC header {HEADER}, found {header}")
        for n, line in enumerate(f, start=2):
            p = line.rstrip("\r\n").split("\t")
            if len(p) != 5 or p[0] not in ("0", "1"):
                raise SystemExit(f"{path}:{n}: expected 5 tab-separated fields with label 0/1, found {p[:1]} and {len(p)} fields")
            rows.append((p[3], p[4], int(p[0]), (p[1], p[2])))
    return rows


def mrpc_split(train_rows, dev_rows, seed, select_fraction=0.1):
    """Seeded hold-out of `select_fraction` of the training pairs (to pick the epoch); the rest train, in both
    orders (paraphrase is symmetric, so (B, A) keeps the label: twice the pairs, and no preference for which
    sentence comes first). Returns (train, select, dev) as (a, b, label) rows and a note for the README."""
    order = list(range(len(train_rows)))
    random.Random(seed).shuffle(order)
    n_sel = round(len(train_rows) * select_fraction)
    sel_idx = set(order[:n_sel])
    fit = [r for i, r in enumerate(train_rows) if i not in sel_idx]
    select = [r[:3] for i, r in enumerate(train_rows) if i in sel_idx]
    train = [r[:3] for r in fit] + [(b, a, l) for a, b, l, _ in fit]
    seen = {s for a, b, _, _ in fit for s in (a, b)}
    dev_shared = sum(a in seen or b in seen for a, b, _, _ in dev_rows)
    sel_shared = sum(a in seen or b in seen for a, b, _ in select)
    note = (f"Trained on {len(fit):,} GLUE MRPC train pairs, each in both orders (paraphrase is symmetric, so "
            f"(B, A) keeps the label: {len(train):,} training pairs); {len(select)} more train pairs ({select_fraction:.0%}, "
            f"seed {seed}) picked the epoch. Dev pairs are not in train.tsv; {dev_shared} of the {len(dev_rows)} dev "
            f"pairs (and {sel_shared} of the {len(select)} selection pairs) have a sentence that also occurs in a "
            f"training pair. The test file is not used.")
    return train, select, [r[:3] for r in dev_rows], note


def binary_f1(gold, pred, positive=1):
    """F1 of the positive class (`equivalent`), as GLUE reports MRPC; None with no positive gold or prediction."""
    tp = sum(g == positive and p == positive for g, p in zip(gold, pred))
    n_pred = sum(p == positive for p in pred)
    n_gold = sum(g == positive for g in gold)
    if n_pred == 0 or n_gold == 0:
        return None
    prec, rec = tp / n_pred, tp / n_gold
    return round(2 * prec * rec / (prec + rec), 4) if prec + rec else 0.0


def synthetic_pairs(fit_rows, seed, drop=0.15, splice=0.3):
    """Auxiliary pairs made from the training sentences only (no dev or test text), one per sentence, alternating:
    `equivalent` = the sentence with each word dropped with probability `drop`; `not_equivalent` = another
    training sentence with the first or last `splice` of this sentence's words put in its place (partial overlap,
    so overlap alone is not the answer); each pair in a random order. They teach the encoder to compare the two texts word by word, which 3.3k
    real pairs hardly do from scratch. Returns (a, b, label) rows."""
    rng = random.Random(seed + 1)
    sents = sorted({s for a, b, _ in fit_rows for s in (a, b)})
    out = []
    for i, s in enumerate(sents):
        words = s.split()
        if i % 2 == 0:
            kept = [w for w in words if rng.random() >= drop] or words[:1]
            out.append((s, " ".join(kept), 1))
        else:
            other = sents[rng.randrange(len(sents))].split()
            k = max(1, round(len(words) * splice))
            n = max(1, round(len(other) * (1 - splice)))
            mixed = words[:k] + other[-n:] if rng.random() < 0.5 else other[:n] + words[-k:]
            out.append((s, " ".join(mixed), 0))
    # either order, as the real pairs are trained
    return [(b, a, l) if rng.random() < 0.5 else (a, b, l) for a, b, l in out]


# The parity reference's pairs (train_bert.py --parity-json): our own sentences, not MRPC text (MRPC's licence does
# not clearly allow redistribution), news-like as MRPC's are, with organisation names for the entity probe; the last
# pair is long enough to be cut `longest_first`.
_LONG = ("The board of Northwind Traders said on Tuesday that its quarterly profit rose sharply, helped by strong demand "
         "for its services in Europe and Asia, lower costs and a one-time gain from the sale of a unit, ")
PARITY_PAIRS = [
    ("Acme Corp. said its profit rose 5 percent in the third quarter.",
     "Third-quarter profit at Acme Corp. climbed 5 percent, the company said."),
    ("Shares of Globex fell 3 percent on Monday.", "Globex shares closed higher on Friday after the report."),
    ("The Federal Reserve left interest rates unchanged.", "The Fed kept rates where they were."),
    ("Microsoft will release the update next week.", "The update from Microsoft is due out next week."),
    ("Police arrested two men after the robbery.", "The weather in Seattle was cold and wet all week."),
    ("Initech agreed to buy Hooli for $2 billion in cash.", "Hooli will be acquired by Initech in a $2 billion cash deal."),
    ("The court rejected the appeal on Thursday.", "On Thursday the appeal was rejected by the court."),
    ("Sales of new homes dropped in June, the Commerce Department said.",
     "The Commerce Department said sales of new homes rose in July."),
    ("NASA delayed the launch because of high winds.", "High winds forced NASA to postpone the launch."),
    ("Naïve investors lost money — about €3 million — in the scheme.", "Investors lost about 3 million euros."),
    ("IBM and Oracle compete for the contract.", "Oracle and IBM compete for the contract."),
    ("ÉLAN S.A. named a new chief executive.", "Élan SA has appointed a new CEO."),
    (_LONG * 3, "Northwind Traders reported higher quarterly profit. " * 12),
]
