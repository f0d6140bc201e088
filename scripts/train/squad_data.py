"""SQuAD v1.1 text for the demo models trained by train_qa.py (demo-squad) and train_bert.py --task qnli
(demo-qnli): reading, the held-out split around Jia & Liang's adversarial sets, QNLI-style pairs, and the
official SQuAD v1.1 answer scoring (evaluate-v1.1.py).

The only SQuAD text here is the v1.1 dev set, so both models are trained on parts of it:
  - demo-squad holds out every paragraph that carries an original question of AddSent or AddOneSent (ids without
    the `-high-conf-turkN` suffix of the adversarial copies): those questions AND every other question on the same
    paragraphs, so no held-out context was seen in training.
  - demo-qnli trains on the SQuAD dev questions whose text is not a GLUE QNLI dev question (QNLI dev and test are
    both built from SQuAD dev questions); the paragraphs, and so the sentences, are shared with QNLI dev.
"""
import collections
import hashlib
import json
import re
import string

ADV_FILES = ("sample1k-HCVerifyAll.json", "sample1k-HCVerifySample.json")   # AddSent, AddOneSent
ADV_COPY = re.compile(r"-high-conf-turk\d+$")


def read_squad(path):
    """-> list of paragraphs {article, title, context, qas: [{id, question, answers: [(text, start)]}]},
    every answer checked against its offset."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for ai, art in enumerate(doc["data"]):
        for par in art["paragraphs"]:
            ctx = par["context"]
            qas = []
            for qa in par["qas"]:
                answers = [(a["text"], a["answer_start"]) for a in qa["answers"]]
                for text, start in answers:
                    assert ctx[start:start + len(text)] == text, f"{qa['id']}: answer {text!r} not at {start}"
                qas.append({"id": qa["id"], "question": qa["question"], "answers": answers})
            out.append({"article": ai, "title": art["title"], "context": ctx, "qas": qas})
    return out


def adversarial_originals(paths):
    """Ids of the original questions in Jia & Liang's files (the ones without the -high-conf-turkN suffix)."""
    ids = set()
    for p in paths:
        with open(p, encoding="utf-8") as f:
            doc = json.load(f)
        ids |= {q["id"] for art in doc["data"] for par in art["paragraphs"] for q in par["qas"]
                if not ADV_COPY.search(q["id"])}
    return ids


def ids_checksum(ids):
    """sha256 of the sorted ids joined by newlines: names a set of questions without listing it."""
    return hashlib.sha256("\n".join(sorted(ids)).encode("utf-8")).hexdigest()


def squad_json(paragraphs, keep=lambda qa: True):
    """A SQuAD v1.1 document of the given paragraphs (grouped back into their articles), questions filtered."""
    arts = collections.OrderedDict()
    for p in paragraphs:
        qas = [{"id": q["id"], "question": q["question"],
                "answers": [{"text": t, "answer_start": s} for t, s in q["answers"]]} for q in p["qas"] if keep(q)]
        if qas:
            arts.setdefault((p["article"], p["title"]), []).append({"context": p["context"], "qas": qas})
    return {"version": "1.1", "data": [{"title": t, "paragraphs": ps} for (_, t), ps in arts.items()]}


# --------------------------------------------------------------- official SQuAD v1.1 scoring (evaluate-v1.1.py)
_PUNCT = set(string.punctuation)


def normalize_answer(s):
    s = "".join(ch for ch in s.lower() if ch not in _PUNCT)
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", s).split())


def answer_f1(pred, gold):
    p, g = normalize_answer(pred).split(), normalize_answer(gold).split()
    same = sum((collections.Counter(p) & collections.Counter(g)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def best_over_gold(pred, golds):
    """(EM, F1), each the best over the gold answers."""
    return (max(float(normalize_answer(pred) == normalize_answer(g)) for g in golds),
            max(answer_f1(pred, g) for g in golds))


# --------------------------------------------------------------- QNLI-style pairs
# A sentence ends at . ! or ? (closing quotes/brackets kept with it) followed by space and a capital, digit or quote.
_SENT_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])")


def split_sentences(text):
    """-> [(start, end)] character spans of the sentences (stripped)."""
    spans, start = [], 0
    for m in _SENT_END.finditer(text):
        end = m.end()
        spans.append((start, end))
        start = end
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        piece = text[s:e]
        s2 = s + len(piece) - len(piece.lstrip())
        e2 = e - (len(piece) - len(piece.rstrip()))
        if e2 > s2:
            out.append((s2, e2))
    return out


def qnli_pairs(paragraphs, rng, skip_question=lambda q: False):
    """One entailment and one not_entailment pair per usable question, as (sentence, question, label):
    entailment = the sentence holding the first gold answer (whole), not_entailment = another sentence of the same
    paragraph, drawn with rng among those holding no gold answer start. Returns (pairs, counts of skips)."""
    pairs, skipped = [], collections.Counter()
    for p in paragraphs:
        ctx = p["context"]
        sents = split_sentences(ctx)
        for q in p["qas"]:
            if skip_question(q):
                skipped["question in QNLI dev"] += 1
                continue
            text, start = q["answers"][0]
            pos = [(s, e) for s, e in sents if s <= start and start + len(text) <= e]
            if not pos:
                skipped["answer crosses a sentence boundary"] += 1
                continue
            starts = [a[1] for a in q["answers"]]
            neg = [(s, e) for s, e in sents if not any(s <= a < e for a in starts)]
            if not neg:
                skipped["no other sentence in the paragraph"] += 1
                continue
            n = rng.choice(neg)
            pairs.append((ctx[pos[0][0]:pos[0][1]], q["question"], 0))
            pairs.append((ctx[n[0]:n[1]], q["question"], 1))
    return pairs, dict(skipped)


def read_qnli(path):
    """GLUE QNLI TSV -> [(sentence, question, label index)] with labels entailment=0 / not_entailment=1."""
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        iq, i_s, il = header.index("question"), header.index("sentence"), header.index("label")
        for line in f:
            p = line.rstrip("\n").split("\t")
            rows.append((p[i_s], p[iq], ["entailment", "not_entailment"].index(p[il].strip())))
    return rows
