#!/usr/bin/python3
"""Train the extractive-QA demo model (models/demo-squad) from scratch and export it in the transformers.js layout.

Data: the SQuAD v1.1 dev set is the only SQuAD text here (see squad_data.py). Held out: every paragraph that
carries an original question of AddSent or AddOneSent (Jia & Liang's sample1k-HCVerifyAll/-Sample files) — those
1,000 questions and every other question on the same paragraphs. Trained on the other paragraphs, less a seeded
slice of them that picks the epoch. The vocabulary is learned from the training paragraphs only.

Encoding: exactly as the adapter (src/models/transformers/qa.ts) does, so torch and JS see the same ids:
  question: its WordPiece ids cut to 64; context: every /\\S+/ word tokenized on its own, piece offsets found as
  pieces.ts alignPieces finds them; windows of model_max_length - 3 - |question| context tokens, consecutive
  windows sharing min(128, budget / 2) tokens; rows [CLS] question [SEP] window [SEP], token types 0 then 1.
Targets as Hugging Face's run_squad: the first gold answer's first and last token in the window, or [CLS] when the
answer is not wholly inside it. The loss looks at [CLS] and the window's context tokens only.
Decoding as qa.ts: softmax over each window's context tokens, the best start x end among the 20 best of each
(end >= start, at most 30 tokens), spans merged over windows by character offsets, best score first.
Scoring: official SQuAD v1.1 EM/F1 (max over gold answers).

Reuses train_bert.py's tokenizer, encoder, optimisers, model-folder writer, export_onnx and README writer.

Usage (from the repo root; Debian python3-torch 1.13), models/demo-squad as committed:
  /usr/bin/python3 scripts/train/train_qa.py --out models/demo-squad --threads 1 --max-minutes 40 --hidden 64 \\
      --inter 256 --heads 4 --batch-size 16 --lr 2e-3 --epochs 30 \\
      --parity-json test/fixtures/models/demo-parity/demo-squad.json
The defaults (hidden 128, inter 512, batch 32, LR 1e-3) are the first run, recorded in models/demo-squad/metrics.json
(other_runs). Both stopped on the time budget, so a rerun under another load stops at another step.
"""
import argparse
import collections
import copy
import datetime
import json
import math
import os
import random
import re
import sys
import time
import unicodedata

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from squad_data import (ADV_FILES, adversarial_originals, best_over_gold, ids_checksum,  # noqa: E402
                        read_squad, squad_json)
from train_bert import (CLS, DEFAULT_DATA, OPTIMIZER, SEP, UNK, Bert, BertQa, Optimizers, WordPiece,  # noqa: E402
                        basic_tokenize, batches, export_onnx, file_info, learn_vocab, predict, run_command,
                        write_model_folder, write_readme_file)

# The adapter's constants (qa.ts and its defaults in load.ts).
MAX_QUESTION_TOKENS, DOC_STRIDE, N_BEST, MAX_ANSWER_TOKENS, TOP_K = 64, 128, 20, 30, 3
# JavaScript's /\S+/: a run of characters outside JS's whitespace set (which differs from Python's str.isspace).
JS_WORD = re.compile("[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
SPACE_MARKERS = ("\u0120", "\u2581")
HELDOUT_FILE = "heldout-squad.json"

DEFAULTS = dict(hidden=128, layers=2, heads=4, inter=512, epochs=12, batch_size=32, lr=1e-3, vocab_size=8000,
                lowercase=True, dropout=0.1)


# =============================================================== the adapter's encoding, in Python
def fold(s):
    """pieces.ts fold: lower case and strip accents one character at a time, keeping the length."""
    out = []
    for c in s:
        lower = c.lower()
        low = lower if len(lower) == 1 else c
        bare = "".join(x for x in unicodedata.normalize("NFD", low) if unicodedata.category(x) != "Mn")
        out.append(bare if len(bare) == 1 else low)
    return "".join(out)


def align_pieces(word, pieces, prefix="##"):
    """pieces.ts alignPieces: character offsets of a word's pieces inside the word."""
    folded, cursor, out = fold(word), 0, []
    for k, piece in enumerate(pieces):
        text = piece[len(prefix):] if k > 0 and prefix and piece.startswith(prefix) else piece
        marker = next((m for m in SPACE_MARKERS if text.startswith(m) and not word.startswith(m)), None) if k == 0 else None
        if marker:
            text = text[len(marker):]
            if not text:
                out.append((0, 0))
                continue
        bare = fold(text)
        idx = folded.find(bare, cursor) if bare else -1
        if idx < 0:
            out.append((min(cursor, len(word)), len(word)))
            continue
        cursor = idx + len(bare)
        out.append((idx, cursor))
    return out


class QaEncoder:
    def __init__(self, tok, max_len):
        self.tok, self.max_len, self.cache = tok, max_len, {}

    def word(self, w):
        """Ids and character offsets of one context word's pieces (transformers.js tokenize(word))."""
        r = self.cache.get(w)
        if r is None:
            ids = [i for sub in basic_tokenize(w, self.tok.lowercase) for i in self.tok.word_ids(sub)]
            pieces = [self.tok.vocab[i] for i in ids] if ids else [""]
            r = (ids or [UNK], align_pieces(w, pieces))
            self.cache[w] = r
        return r

    def context(self, ctx):
        ids, offsets = [], []
        for m in JS_WORD.finditer(ctx):
            wid, local = self.word(m.group())
            ids += wid
            offsets += [(m.start() + s, m.start() + e) for s, e in local]
        return ids, offsets

    def windows(self, question, n_ctx):
        """(question ids, [(from, to)]) of the context windows qa.ts reads."""
        q = self.tok.tokenize_ids(question)[:MAX_QUESTION_TOKENS]
        budget = self.max_len - 3 - len(q)
        assert budget >= 8, f"question too long for {self.max_len} tokens: {question[:80]}"
        stride = min(DOC_STRIDE, budget // 2)
        spans, frm = [], 0
        while True:
            to = min(n_ctx, frm + budget)
            spans.append((frm, to))
            if to >= n_ctx:
                return q, spans
            frm += budget - stride


def features(enc, paragraphs, keep, train):
    """One feature per window of every kept question. Training features carry the targets (start/end position in
    the row, 0 = [CLS] when the first gold answer is not wholly in the window). Returns (features, questions, stats)."""
    feats, questions, stats = [], [], collections.Counter()
    for p in paragraphs:
        ctx = p["context"]
        ids, offsets = enc.context(ctx)
        for qa in p["qas"]:
            if not keep(qa):
                continue
            q, spans = enc.windows(qa["question"], len(ids))
            qi = len(questions)
            questions.append({"qa": qa, "context": ctx, "offsets": offsets, "features": []})
            ts = te = None
            if train:
                text, start = qa["answers"][0]
                end = start + len(text)
                inside = [i for i, (s, e) in enumerate(offsets) if e > start and s < end]
                if not inside:
                    stats["answer on no token (skipped)"] += 1
                    continue
                ts, te = inside[0], inside[-1]
                if ctx[offsets[ts][0]:offsets[te][1]].strip() != text.strip():
                    stats["answer not on token boundaries (target widened to whole tokens)"] += 1
            for frm, to in spans:
                row = [CLS] + q + [SEP] + ids[frm:to] + [SEP]
                cs = len(q) + 2
                f = {"ids": row, "types": [0] * cs + [1] * (to - frm + 1), "q": qi, "cs": cs, "frm": frm, "n": to - frm,
                     "labels": 0, "end": 0}
                if train:
                    hit = frm <= ts and te < to
                    f["labels"], f["end"] = (cs + ts - frm, cs + te - frm) if hit else (0, 0)
                    stats["windows with the answer" if hit else "windows without it ([CLS] target)"] += 1
                questions[qi]["features"].append(len(feats))
                feats.append(f)
    return feats, questions, dict(stats)


# =============================================================== the adapter's decoding, in Python
def softmax64(xs):
    m = max(xs)
    es = [math.exp(x - m) for x in xs]
    s = sum(es)
    return [e / s for e in es]


def best_spans(ps, pe, offsets, context):
    """qa.ts bestSpans: the best start/end pairs of one window."""
    def top(xs):
        return [i for _, i in sorted(((p, i) for i, p in enumerate(xs)), key=lambda t: -t[0])[:N_BEST]]
    out = []
    for s in top(ps):
        for e in top(pe):
            if e < s or e - s + 1 > MAX_ANSWER_TOKENS:
                continue
            a, b = offsets[s][0], offsets[e][1]
            out.append({"text": context[a:b], "start": a, "end": b, "score": ps[s] * pe[e]})
    return sorted(out, key=lambda c: -c["score"])[: max(TOP_K, 1) * 2]


def answer(question, feats, logits):
    """qa.ts collector: spans of every window, merged by offsets (best score kept), best first; top TOP_K."""
    seen = {}
    for fi in question["features"]:
        f, (st, en) = feats[fi], logits[fi]
        cs, n = f["cs"], f["n"]
        ps, pe = softmax64(st[cs:cs + n]), softmax64(en[cs:cs + n])
        for c in best_spans(ps, pe, question["offsets"][f["frm"]:f["frm"] + n], question["context"]):
            key = (c["start"], c["end"])
            if key not in seen or seen[key]["score"] < c["score"]:
                seen[key] = c
    return sorted(seen.values(), key=lambda c: (-c["score"], c["start"]))[:TOP_K]


def run_model(model, feats):
    """Start and end logits (python float lists over the row) of every feature."""
    return [(l[:, 0].tolist(), l[:, 1].tolist()) for l in predict(model.bert, feats, 64)]


def evaluate(model, feats, questions):
    logits = run_model(model, feats)
    em = f1 = 0.0
    preds = {}
    for q in questions:
        spans = answer(q, feats, logits)
        best = spans[0]["text"] if spans else ""
        e, f = best_over_gold(best, [t for t, _ in q["qa"]["answers"]])
        em, f1 = em + e, f1 + f
        preds[q["qa"]["id"]] = best
    n = len(questions)
    return {"n": n, "exact_match": round(em / n, 4), "f1": round(f1 / n, 4)}, preds, logits


# =============================================================== training
def masked_loss(model, feats, b, ids, am, tt, start_t):
    """Cross-entropy of start and end over [CLS] and the window's context tokens (question and padding masked)."""
    st, en = model(ids, am, tt)
    allowed = torch.zeros_like(st, dtype=torch.bool)
    allowed[:, 0] = True
    for r, j in enumerate(b):
        f = feats[j]
        allowed[r, f["cs"]:f["cs"] + f["n"]] = True
    neg = torch.full_like(st, -1e4)
    end_t = torch.tensor([feats[j]["end"] for j in b])
    return (F.cross_entropy(torch.where(allowed, st, neg), start_t)
            + F.cross_entropy(torch.where(allowed, en, neg), end_t)) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="model folder, e.g. models/demo-squad")
    ap.add_argument("--data-dir", default=DEFAULT_DATA)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--max-len", type=int, default=256, help="model_max_length (and position embeddings)")
    for k in ("hidden", "layers", "heads", "inter", "epochs", "batch_size", "vocab_size"):
        ap.add_argument("--" + k.replace("_", "-"), type=int, default=None)
    ap.add_argument("--lr", type=float, default=None)
    ap.add_argument("--dropout", type=float, default=None)
    ap.add_argument("--warmup", type=float, default=0.06)
    ap.add_argument("--select-fraction", type=float, default=0.06, help="share of training paragraphs that pick the epoch")
    ap.add_argument("--max-minutes", type=float, default=None, help="training time budget (the LR decays to 0 by it)")
    ap.add_argument("--parity-json", default=None, help="write sample windows + torch logits and answers here")
    args = ap.parse_args()
    hp = {k: (getattr(args, k) if getattr(args, k, None) is not None else v) for k, v in DEFAULTS.items()}
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    t_start = time.time()

    # ---------------- split
    squad_path = os.path.join(args.data_dir, "squad-v1.1", "dev-v1.1.json")
    adv_paths = [os.path.join(args.data_dir, "adversarial-squad", f) for f in ADV_FILES]
    pars = read_squad(squad_path)
    originals = adversarial_originals(adv_paths)
    assert originals <= {q["id"] for p in pars for q in p["qas"]}, "an adversarial original is not in SQuAD dev"
    held = [p for p in pars if any(q["id"] in originals for q in p["qas"])]
    rest = [p for p in pars if not any(q["id"] in originals for q in p["qas"])]
    order = list(range(len(rest)))
    rng.shuffle(order)
    n_sel = round(len(rest) * args.select_fraction)
    sel_idx = set(order[:n_sel])
    select = [p for i, p in enumerate(rest) if i in sel_idx]
    train = [p for i, p in enumerate(rest) if i not in sel_idx]
    held_ids = {q["id"] for p in held for q in p["qas"]}
    count = lambda ps: sum(len(p["qas"]) for p in ps)
    split = {
        "rule": "held out: every paragraph carrying an original (non -high-conf-turkN) question of AddSent "
                "(sample1k-HCVerifyAll.json) or AddOneSent (sample1k-HCVerifySample.json) — those questions and every "
                "other question on the same paragraphs; the rest of SQuAD v1.1 dev is trained on, less a seeded "
                f"{args.select_fraction:.0%} of its paragraphs that picks the epoch. Articles are shared between the parts; "
                "paragraphs are not.",
        "heldout_original_questions": len(originals), "heldout_original_ids_sha256": ids_checksum(originals),
        "heldout_paragraphs": len(held), "heldout_questions": len(held_ids), "heldout_ids_sha256": ids_checksum(held_ids),
        "select_paragraphs": len(select), "select_questions": count(select),
        "train_paragraphs": len(train), "train_questions": count(train),
        "ids_sha256": "sha256 of the sorted question ids joined by newlines",
    }
    print(f"[qa] split {json.dumps(split)}", flush=True)

    # ---------------- vocabulary (training paragraphs only) and features
    wc = collections.Counter()
    for p in train:
        wc.update(basic_tokenize(p["context"], hp["lowercase"]))
        for q in p["qas"]:
            wc.update(basic_tokenize(q["question"], hp["lowercase"]))
    vocab = learn_vocab(wc, hp["vocab_size"])
    tok = WordPiece(vocab, hp["lowercase"], args.max_len)
    enc = QaEncoder(tok, args.max_len)
    train_f, _, train_stats = features(enc, train, lambda q: True, True)
    sets = {"select": features(enc, select, lambda q: True, False)[:2],
            "heldout_originals": features(enc, held, lambda q: q["id"] in originals, False)[:2],
            "heldout_all": features(enc, held, lambda q: True, False)[:2]}
    print(f"[qa] vocab {len(vocab)}; {len(train_f)} training windows {train_stats}; "
          + ", ".join(f"{k} {len(v[1])} questions / {len(v[0])} windows" for k, v in sets.items()), flush=True)

    # ---------------- model, training, epoch picked on the select slice
    model = BertQa(Bert(len(vocab), 2, True, hp["hidden"], hp["layers"], hp["heads"], hp["inter"], args.max_len,
                        hp["dropout"]))
    n_params = sum(p.numel() for p in model.parameters())
    total = math.ceil(len(train_f) / hp["batch_size"]) * hp["epochs"]
    opt = Optimizers(model.bert, hp["lr"], total, args.warmup, args.max_minutes)
    print(f"[qa] params {n_params:,}; {hp}; {total} steps at most", flush=True)
    history, best, best_state, stopped_early = [], None, None, False
    t_train = time.time()
    model.train()
    for ep in range(hp["epochs"]):
        tot, nb = 0.0, 0
        for b, ids, am, tt, start_t in batches(train_f, hp["batch_size"], True, rng):
            loss = masked_loss(model, train_f, b, ids, am, tt, start_t)
            opt.step(loss)
            tot, nb = tot + loss.item(), nb + 1
            if opt.out_of_time():
                stopped_early = True
                break
        sel = evaluate(model, *sets["select"])[0]
        res = {"epoch": ep + 1, "step": opt.step_no, "train_loss": round(tot / max(1, nb), 4),
               "minutes": round((time.time() - t_train) / 60, 2), "select_em": sel["exact_match"], "select_f1": sel["f1"]}
        history.append(res)
        print(f"[qa] {json.dumps(res)}", flush=True)
        if best is None or res["select_f1"] > best["select_f1"]:
            best, best_state = res, copy.deepcopy(model.state_dict())
        if stopped_early:
            print("[qa] time limit reached", flush=True)
            break
    train_seconds = time.time() - t_train
    model.load_state_dict(best_state)
    model.eval()

    metrics, preds = {}, {}
    for k, (fs, qs) in sets.items():
        metrics[k], p, _ = evaluate(model, fs, qs)
        preds.update(p)
    metrics["selected_epoch"], metrics["selected_epoch_on"] = best["epoch"], "select (F1)"
    print(f"[qa] final {json.dumps(metrics)}", flush=True)

    # ---------------- model folder
    out = args.out
    write_model_folder(out, vocab, hp["lowercase"], args.max_len, hp, "BertForQuestionAnswering", {})
    with open(os.path.join(out, HELDOUT_FILE), "w", encoding="utf-8") as f:
        json.dump(squad_json(held, lambda q: q["id"] in originals), f, ensure_ascii=False)
    onnx_path = os.path.join(out, "onnx", "model.onnx")
    ex = torch.tensor([[CLS, 10, SEP, 11, 12, SEP]] * 2)
    per_token = {0: "batch_size", 1: "sequence_length"}
    onnx_check = export_onnx(model, (ex, torch.ones_like(ex), torch.tensor([[0, 0, 0, 1, 1, 1]] * 2)), onnx_path,
                             {"start_logits": per_token, "end_logits": per_token})
    onnx_bytes = os.path.getsize(onnx_path)
    print(f"[qa] exported {onnx_path} ({onnx_bytes / 1e6:.2f} MB, {onnx_check})", flush=True)
    if args.parity_json:
        write_parity(args.parity_json, model, enc, held, originals)

    meta = {
        "task": "squad", "metrics": metrics, "history": history, "split": split, "seed": args.seed,
        "train_seconds": round(train_seconds, 1), "total_seconds": round(time.time() - t_start, 1),
        "stopped_early_by_time_limit": stopped_early, "command": run_command(), "run_from": "repository root",
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "data_files": [file_info(squad_path)] + [file_info(p) for p in adv_paths],
        "hyperparameters": {**hp, "max_len": args.max_len, "warmup": args.warmup, "threads": args.threads,
                            "max_minutes": args.max_minutes, "select_fraction": args.select_fraction,
                            "optimizer": OPTIMIZER},
        "vocab_size": len(vocab), "params": n_params, "onnx_bytes": onnx_bytes, "onnx_check": onnx_check,
        "training_windows": len(train_f), "training_targets": train_stats,
        "truncation": (f"question cut to {MAX_QUESTION_TOKENS} tokens; the context read in windows of "
                       f"{args.max_len} - 3 - |question| tokens sharing min({DOC_STRIDE}, half a window) tokens, "
                       "as the textstress QA adapter reads it"),
        "heldout_file": f"{HELDOUT_FILE}: the {len(originals)} held-out original questions with their paragraphs "
                        "(SQuAD v1.1 dev, Rajpurkar et al. 2016, CC BY-SA 4.0)",
        "torch": torch.__version__, "python": sys.version.split()[0],
    }
    with open(os.path.join(out, "metrics.json"), "w") as f:
        json.dump(meta, f, indent=1, ensure_ascii=False)
    write_qa_readme(out, metrics, meta, hp, split)
    print(f"[qa] done in {time.time() - t_start:.0f}s", flush=True)


def write_parity(path, model, enc, held, originals):
    """Torch's windows, logits and answers for a few held-out questions (one long context, one question over 64
    tokens), for the JS parity test."""
    firsts = [(p["context"], next(q["question"] for q in p["qas"] if q["id"] in originals)) for p in held]
    samples = firsts[:6]
    longest = max(held, key=lambda p: len(p["context"]))
    samples.append((longest["context"], longest["qas"][0]["question"]))
    samples.append((held[0]["context"], " ".join([held[0]["qas"][0]["question"]] * 8)))
    paras = [{"article": 0, "title": "parity", "context": c, "qas": [{"id": str(i), "question": q, "answers": [("", 0)]}]}
             for i, (c, q) in enumerate(samples)]
    feats, questions, _ = features(enc, paras, lambda q: True, False)
    logits = run_model(model, feats)
    rows = [{"question": q["qa"]["question"], "context": q["context"],
             "windows": [{"input_ids": feats[i]["ids"], "token_type_ids": feats[i]["types"],
                          "start_logits": [round(x, 6) for x in logits[i][0]],
                          "end_logits": [round(x, 6) for x in logits[i][1]]} for i in q["features"]],
             "answers": answer(q, feats, logits)} for q in questions]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"task": "question-answering", "samples": rows}, f, ensure_ascii=False)


def write_qa_readme(out, metrics, meta, hp, split):
    o, a, s = metrics["heldout_originals"], metrics["heldout_all"], metrics["select"]
    bullets = [
        f"Held-out SQuAD v1.1 EM / F1 (official normalisation, best over gold answers): **{100 * o['exact_match']:.2f} / "
        f"{100 * o['f1']:.2f}** on the {o['n']:,} original questions of AddSent/AddOneSent (`{HELDOUT_FILE}`); "
        f"{100 * a['exact_match']:.2f} / {100 * a['f1']:.2f} on all {a['n']:,} questions of their {split['heldout_paragraphs']} "
        f"paragraphs; {100 * s['exact_match']:.2f} / {100 * s['f1']:.2f} on the {s['n']} epoch-selection questions.",
        f"Split: {split['rule']} Trained on {split['train_questions']:,} questions ({split['train_paragraphs']:,} "
        f"paragraphs), epoch picked on {split['select_questions']} ({split['select_paragraphs']} paragraphs), held out "
        f"{split['heldout_questions']:,} ({split['heldout_paragraphs']} paragraphs; ids sha256 "
        f"`{split['heldout_ids_sha256'][:16]}…`, originals `{split['heldout_original_ids_sha256'][:16]}…`).",
        f"`{HELDOUT_FILE}`: the held-out originals with their paragraphs, from SQuAD v1.1 dev (Rajpurkar et al. 2016), "
        "licensed CC BY-SA 4.0: `npx textstress eval --model models/demo-squad --data models/demo-squad/"
        f"{HELDOUT_FILE}` gives the numbers above.",
    ]
    usage = ("it through the textstress QA adapter (`--model models/demo-squad`); another reader must encode "
             "`[CLS] question [SEP] context window [SEP]` (token types 0, then 1) and read spans off the two outputs.")
    write_readme_file(out, "demo-squad", "extractive question answering (SQuAD v1.1 style, answers are context spans)",
                      bullets, usage, meta, hp, outputs="outputs `start_logits`, `end_logits`")


if __name__ == "__main__":
    main()
