#!/usr/bin/python3
"""Train a small masked-language-model BERT from scratch (demo-mlm) for `textstress probe cloze`, in the
transformers.js layout (BertForMaskedLM: output `logits` [batch, sequence, vocab]).

Text: every training sentence available here — SST-2 train, CoLA train, SICK TRAIN, MRPC train (both sides) and
CoNLL-2003 train — de-duplicated. Held out for the masked-token accuracy: SST-2 dev and CoLA dev (the sentences
`probe cloze` uses by default), never trained on. Masking as BERT's: 15% of the pieces, of which 80% become [MASK],
10% a random piece and 10% stay; the loss is read at the chosen pieces only.

The exported graph also returns hidden_states.0 … hidden_states.L and attentions.0 … attentions.L-1 (see
train_bert.WithInternals), so `probe layers|heads` read them without exposing them from the graph.

Shared with train_bert.py: tokenizer, vocabulary learner, encoder, optimisers, model-folder and README writers.
Usage (from the repo root; Debian python3-torch 1.13):
  /usr/bin/python3 scripts/train/train_mlm.py --out models/demo-mlm --max-minutes 40
"""
import argparse
import collections
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from train_bert import (CLS, DEFAULT_DATA, MASK, OPTIMIZER, PAD, SEP, SPECIALS, Bert, Optimizers, WithInternals,  # noqa: E402
                        WordPiece, basic_tokenize, export_onnx, file_info, internals_outputs, learn_vocab, read_cola,
                        read_conll, read_sick, read_sst2, run_command, write_model_folder, write_readme_file)

HP = dict(hidden=128, layers=4, heads=4, inter=512, batch_size=64, lr=1e-3, vocab_size=8000, lowercase=True,
          dropout=0.1, epochs=40, max_len=64, mask_rate=0.15)


class MlmHead(nn.Module):
    """HF's BertLMPredictionHead (dense + gelu + LayerNorm, then a projection onto the vocabulary), untied: the word
    embeddings are trained sparsely (SparseAdam) and a tied decoder would make their gradient dense."""

    def __init__(self, hidden, vocab):
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, x):
        return self.decoder(self.norm(F.gelu(self.dense(x))))


class BertMlm(nn.Module):
    def __init__(self, bert, head):
        super().__init__()
        self.bert, self.mlm = bert, head

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.mlm(self.bert.encode(input_ids, attention_mask, token_type_ids))


def read_mrpc_sentences(path):
    out = []
    with open(path, encoding="utf-8-sig") as f:
        f.readline()
        for line in f:
            p = line.rstrip("\r\n").split("\t")
            if len(p) >= 5:
                out += [p[3], p[4]]
    return out


def mask_batch(ids, am, rng, vocab_size, rate):
    """BERT masking of a padded batch: -> (inputs, labels with -100 where nothing is predicted)."""
    inputs, labels = ids.clone(), torch.full_like(ids, -100)
    for r in range(ids.shape[0]):
        cand = [t for t in range(int(am[r].sum())) if ids[r, t].item() not in (CLS, SEP, PAD)]
        if not cand:
            continue
        k = max(1, round(len(cand) * rate))
        for t in rng.sample(cand, min(k, len(cand))):
            labels[r, t] = ids[r, t]
            u = rng.random()
            if u < 0.8:
                inputs[r, t] = MASK
            elif u < 0.9:
                inputs[r, t] = rng.randrange(len(SPECIALS), vocab_size)
    return inputs, labels


def padded(seqs):
    T = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), T, dtype=torch.long)
    am = torch.zeros(len(seqs), T, dtype=torch.long)
    for r, s in enumerate(seqs):
        ids[r, :len(s)] = torch.tensor(s)
        am[r, :len(s)] = 1
    return ids, am


def masked_accuracy(model, seqs, vocab_size, seed, batch=256):
    """Top-1 accuracy at 15% of the pieces replaced by [MASK] (fixed seed, so every evaluation masks the same)."""
    rng = random.Random(seed)
    right = total = 0
    model.eval()
    with torch.no_grad():
        for s in range(0, len(seqs), batch):
            ids, am = padded(seqs[s:s + batch])
            inputs, labels = ids.clone(), torch.full_like(ids, -100)
            for r in range(ids.shape[0]):
                cand = [t for t in range(int(am[r].sum())) if ids[r, t].item() not in (CLS, SEP, PAD)]
                for t in rng.sample(cand, max(1, round(len(cand) * 0.15))) if cand else []:
                    labels[r, t], inputs[r, t] = ids[r, t], MASK
            logits = model(inputs, am, torch.zeros_like(ids))
            sel = labels != -100
            right += (logits[sel].argmax(-1) == labels[sel]).sum().item()
            total += sel.sum().item()
    model.train()
    return round(right / max(1, total), 4), total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--data-dir", default=DEFAULT_DATA)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-minutes", type=float, default=40)
    ap.add_argument("--epochs", type=int, default=HP["epochs"])
    args = ap.parse_args()
    hp = dict(HP, epochs=args.epochs)
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    D = args.data_dir
    paths = {"sst2_train": os.path.join(D, "sst2", "train.tsv"), "cola_train": os.path.join(D, "cola", "train.tsv"),
             "sick": os.path.join(D, "sick", "SICK.txt"), "mrpc_train": os.path.join(D, "mrpc", "train.tsv"),
             "conll_train": os.path.join(D, "conll2003", "eng.train"),
             "sst2_dev": os.path.join(D, "sst2", "dev.tsv"), "cola_dev": os.path.join(D, "cola", "dev.tsv")}
    held = [s for s, _ in read_sst2(paths["sst2_dev"])] + [s for s, _ in read_cola(paths["cola_dev"])]
    held_set = {" ".join(s.lower().split()) for s in held}
    texts = ([s for s, _ in read_sst2(paths["sst2_train"])] + [s for s, _ in read_cola(paths["cola_train"])]
             + [t for a, b, _ in read_sick(paths["sick"])["TRAIN"] for t in (a, b)]
             + read_mrpc_sentences(paths["mrpc_train"]) + [" ".join(w) for w, _ in read_conll(paths["conll_train"])])
    seen, train_texts = set(), []
    for t in texts:
        k = " ".join(t.lower().split())
        if k and k not in seen and k not in held_set and len(k.split()) >= 3:
            seen.add(k)
            train_texts.append(t)
    wc = collections.Counter()
    for t in train_texts:
        wc.update(basic_tokenize(t, True))
    vocab = learn_vocab(wc, hp["vocab_size"])
    tok = WordPiece(vocab, True, hp["max_len"])
    train = [tok.encode(t)[0] for t in train_texts]
    dev = [tok.encode(t)[0] for t in held]
    print(f"[mlm] {len(train)} training sentences, {len(dev)} held out, vocab {len(vocab)}", flush=True)

    bert = Bert(len(vocab), 1, True, hp["hidden"], hp["layers"], hp["heads"], hp["inter"], hp["max_len"], hp["dropout"])
    bert.classifier = None     # the MLM head replaces the token classifier
    model = BertMlm(bert, MlmHead(hp["hidden"], len(vocab)))
    model.word_embeddings = bert.word_embeddings   # what Optimizers trains sparsely
    n_params = sum(p.numel() for p in model.parameters())
    steps_per_epoch = math.ceil(len(train) / hp["batch_size"])
    opt = Optimizers(model, hp["lr"], steps_per_epoch * hp["epochs"], 0.06, args.max_minutes)
    print(f"[mlm] params {n_params:,}; {hp}", flush=True)
    history, t0, stopped = [], time.time(), False
    model.train()
    for ep in range(hp["epochs"]):
        order = sorted(range(len(train)), key=lambda i: (len(train[i]), rng.random()))
        blocks = [order[s:s + hp["batch_size"]] for s in range(0, len(order), hp["batch_size"])]
        rng.shuffle(blocks)
        tot, nb = 0.0, 0
        for b in blocks:
            ids, am = padded([train[i] for i in b])
            inputs, labels = mask_batch(ids, am, rng, len(vocab), hp["mask_rate"])
            x = bert.encode(inputs, am, torch.zeros_like(ids))
            sel = labels != -100
            loss = F.cross_entropy(model.mlm(x[sel]), labels[sel])
            opt.step(loss)
            tot += loss.item()
            nb += 1
            if opt.out_of_time():
                stopped = True
                break
        acc, n_masked = masked_accuracy(model, dev, len(vocab), args.seed)
        res = {"epoch": ep + 1, "step": opt.step_no, "train_loss": round(tot / max(1, nb), 4),
               "heldout_masked_accuracy": acc, "minutes": round((time.time() - t0) / 60, 2)}
        history.append(res)
        print(f"[mlm] {json.dumps(res)}", flush=True)
        if stopped:
            break
    train_seconds = time.time() - t0
    model.eval()
    acc, n_masked = masked_accuracy(model, dev, len(vocab), args.seed)
    unigram = collections.Counter(t for s in train for t in s if t not in (CLS, SEP))
    top = unigram.most_common(1)[0]
    metrics = {"heldout_masked_accuracy": acc, "heldout_masked_tokens": n_masked, "heldout_sentences": len(dev),
               "heldout_most_frequent_piece_rate": None, "train_sentences": len(train), "epochs_run": len(history)}
    # the floor: always guessing the most frequent training piece
    rng_eval = random.Random(args.seed)
    hits = tot = 0
    for s in dev:
        cand = [t for t in range(len(s)) if s[t] not in (CLS, SEP)]
        for t in rng_eval.sample(cand, max(1, round(len(cand) * 0.15))) if cand else []:
            hits += s[t] == top[0]
            tot += 1
    metrics["heldout_most_frequent_piece_rate"] = round(hits / max(1, tot), 4)
    print(f"[mlm] final {json.dumps(metrics)}", flush=True)

    out = args.out
    write_model_folder(out, vocab, True, hp["max_len"], hp, "BertForMaskedLM", {"tie_word_embeddings": False})
    ex = torch.tensor([tok.encode("a tiny [MASK] example .")[0]] * 2)
    export = WithInternals(bert, model.mlm)
    out_axes = {0: "batch_size", 1: "sequence_length"}
    check = export_onnx(export, (ex, torch.ones_like(ex), torch.zeros_like(ex)), os.path.join(out, "onnx", "model.onnx"),
                        {"logits": out_axes, **internals_outputs(hp["layers"])})
    meta = {"task": "mlm", "metrics": metrics, "history": history, "seed": args.seed, "params": n_params,
            "vocab_size": len(vocab), "train_seconds": round(train_seconds, 1), "command": run_command(),
            "data_files": [file_info(p) for p in paths.values()], "onnx_check": check,
            "hyperparameters": {**hp, "threads": args.threads, "max_minutes": args.max_minutes, "optimizer": OPTIMIZER},
            "truncation": f"a sentence keeps its first {hp['max_len'] - 2} pieces",
            "date": time.strftime("%Y-%m-%d")}
    with open(os.path.join(out, "metrics.json"), "w") as f:
        json.dump(meta, f, indent=1)
    what = ("a masked language model (BertForMaskedLM) for `textstress probe cloze`, trained on the sentences of SST-2 "
            "train, CoLA train, SICK train, MRPC train and CoNLL-2003 train")
    bullets = [f"Metric: masked-token top-1 accuracy {acc:.3f} on {n_masked:,} masked pieces of {len(dev):,} held-out "
               f"sentences (SST-2 dev + CoLA dev, never trained on); always guessing the most frequent piece scores "
               f"{metrics['heldout_most_frequent_piece_rate']:.3f}.",
               "The graph also returns `hidden_states.0` … `hidden_states.L` and `attentions.0` … `attentions.L-1`."]
    write_readme_file(out, "demo-mlm", what, bullets, "`textstress probe cloze --model models/demo-mlm`.", meta, hp,
                      outputs="output `logits` [batch, sequence, vocabulary]")
    print(f"[mlm] wrote {out} ({check})", flush=True)


if __name__ == "__main__":
    main()
