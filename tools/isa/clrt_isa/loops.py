"""The hottest loop of a kernel's machine code and its instruction mix, for any vendor.

An instruction is a dict: text, op, cond (a conditional branch, or one that only some lanes
take), target (the index of the instruction a branch goes to, else None). A vendor's
classify(x) says what it is: ("fma", (precision, operations)), ("lds"|"sts"|"ldg"|"stg"|
"spill", bytes), ("bar", 1), or (None, None); its slot(x) whether it takes an issue slot of
the unit the FMA peak is counted in."""
from collections import Counter

from . import run


def resolve(ins, labels, what):
    """Turns each instruction's branch label into target (the index of the instruction it
    names): ins as a parser made them, each with label (None: no branch), labels {name:
    index}. A parser that found no instruction, or a branch to a label it did not see, has
    misread the listing (what names it): Failed, never a kernel without loops."""
    if not ins:
        raise run.Failed("no instructions read from %s" % what)
    for x in ins:
        label = x.pop("label")
        if label is not None and label not in labels:
            raise run.Failed("%s: a branch to %s, a label not in the listing: %s" % (what, label, x["text"]))
        x["target"] = labels.get(label)
    return ins


def loops_of(ins):
    """Each loop as (head, back edge): a branch to an earlier instruction, or to itself when
    conditional (an unconditional branch to itself is the end-of-kernel trap)."""
    last = {}
    for i, x in enumerate(ins):
        t = x["target"]
        if t is not None and t <= i and not (t == i and not x["cond"]):
            last[t] = max(i, last.get(t, -1))
    return sorted(last.items())


def one_pass(ins, head, end):
    """The instructions of one pass through a loop: conditional branches fall through and
    unconditional forward ones are followed, the way compilers lay out the common case (for
    clrt's GEMM, the interior tile: vector loads, no edge code)."""
    i, out = head, []
    while head <= i <= end and len(out) < 100000:
        x = ins[i]
        out.append(x)
        t = x["target"]
        if i == end or (t is not None and not x["cond"] and t <= i):
            break
        i = t if t is not None and not x["cond"] and t > i else i + 1
    return out


def mix(body, classify, slot):
    """What one pass holds: instructions, issue slots, FMA instructions and operations per
    precision, local/global loads and stores and scratch messages (count, bytes), barriers."""
    m = dict(instructions=len(body), slots=0, fma_instructions=0, fma_ops=Counter(), bar=0,
             lds=Counter(), sts=Counter(), ldg=Counter(), stg=Counter(), spill=Counter(), ops=Counter())
    for x in body:
        kind, v = classify(x)
        m["slots"] += 1 if slot(x) else 0
        m["ops"][x["op"].split(".")[0]] += 1
        if kind == "fma":
            m["fma_instructions"] += 1
            m["fma_ops"][v[0]] += v[1]
        elif kind == "bar":
            m["bar"] += 1
        elif kind:
            m[kind][v] += 1
    return m


def hottest(ins, classify, slot, peak):
    """The loop with the most FMA operations (ties: the shortest) as a summary dict: its
    instructions on one pass, FMA share (operations per issue slot) and the bound that share
    puts on the fraction of peak (peak: operations per slot by precision); None without loops."""
    found = []
    for head, end in loops_of(ins):
        m = mix(one_pass(ins, head, end), classify, slot)
        found.append((sum(m["fma_ops"].values()), -(end - head), head, end, m))
    if not found:
        return None
    ops, _, head, end, m = max(found, key=lambda f: f[:2])
    prec, prec_ops = m["fma_ops"].most_common(1)[0] if m["fma_ops"] else ("f32", 0)
    share = prec_ops / m["slots"] if m["slots"] else 0.0
    p = peak.get(prec)
    count = lambda c: sum(c.values())
    nbytes = lambda c: sum(w * n for w, n in c.items())
    return dict(loops=len(found), head=head, back=end, static=end - head + 1, instructions=m["instructions"],
                slots=m["slots"], fma_instructions=m["fma_instructions"], fma_ops=dict(m["fma_ops"]),
                precision=prec, fma_share=round(share, 4),
                bound=round(min(1.0, share / p), 4) if p and prec_ops else None,
                local_loads=count(m["lds"]), local_load_bytes=nbytes(m["lds"]), local_stores=count(m["sts"]),
                global_loads=count(m["ldg"]), global_load_bytes=nbytes(m["ldg"]), global_stores=count(m["stg"]),
                spill_messages=count(m["spill"]), barriers=m["bar"],
                fma_per_local_byte=round(prec_ops / nbytes(m["lds"]), 3) if m["lds"] else None,
                top=m["ops"].most_common(8))
