"""Recurrent training runs vs real Paddle 3.3.1: a bidirectional 2-layer LSTM tagger (padded
batches, ``sequence_length`` and ``ignore_index``) and a GRU encoder-decoder with Luong-style
``paddle.bmm`` attention (teacher forcing, padded targets; again with ``nn.MultiHeadAttention``
and global-norm gradient clipping), each trained 15 AdamW steps from
the same weights (``fill_deterministic``) and data (seeded numpy), eagerly and under
``paddle.jit.to_static``: the per-step losses must match to 1e-4 relative."""

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
from _layer_util import fill_deterministic
from _util import rng

import paddle

TOLERANCE = {
    f"case_{n}_{m}": (1e-4, 1e-6)
    for n in ("lstm_tagger", "gru_seq2seq_attention", "gru_seq2seq_mha_clipped")
    for m in ("eager", "to_static")
}

STEPS, BATCH, VOCAB, PAD = 15, 4, 30, 0  # 15 AdamW steps over 3 batches


def _t(a):
    return paddle.to_tensor(a)


def _scale(model, seed, scale):
    """Deterministic weights, shrunk so the recurrences stay out of saturation."""
    fill_deterministic(model, seed)
    for p in model.parameters():
        p.set_value(p.numpy() * scale)
    return model


def _tokens(r, lengths, width):
    """Rows of random tokens in [1, VOCAB) padded with PAD after each row's length."""
    x = r.integers(1, VOCAB, (len(lengths), width)).astype("int64")
    for i, n in enumerate(lengths):
        x[i, n:] = PAD
    return x


def _adamw(model, grad_clip=None):
    return paddle.optimizer.AdamW(
        learning_rate=0.02, weight_decay=0.01, parameters=model.parameters(), grad_clip=grad_clip
    )


def _update(opt, loss):
    loss.backward()
    opt.step()
    opt.clear_grad()
    return loss


def _run(step, batches, compiled):
    """Per-step losses of ``step`` (to_static-compiled when ``compiled``) over ``batches``
    (cycled: three distinct batches, so the losses fall)."""
    if compiled:
        step = paddle.jit.to_static(step)
    return [float(step(*(_t(a) for a in batches[i % len(batches)]))) for i in range(STEPS)]


# -- LSTM tagger: Embedding -> 2-layer bidirectional LSTM -> Linear -> per-token CE -----------
TAGS, T_LEN = 5, 7


class _Tagger(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 12, padding_idx=PAD)
        self.lstm = nn.LSTM(12, 16, num_layers=2, direction="bidirect")
        self.head = nn.Linear(32, TAGS)

    def forward(self, x, lengths):
        h, _ = self.lstm(self.embed(x), sequence_length=lengths)
        return self.head(h)


def _train_tagger(compiled):
    model = _scale(_Tagger(), 31, 0.3)
    r = rng(32)
    batches = []
    for _ in range(3):
        lengths = r.integers(4, T_LEN + 1, BATCH).astype("int64")
        lengths[0] = T_LEN
        x = _tokens(r, lengths, T_LEN)
        y = r.integers(0, TAGS, (BATCH, T_LEN)).astype("int64")
        y[x == PAD] = -100
        batches.append((x, lengths, y))

    opt = _adamw(model)

    def step(x, lengths, y):
        logits = model(x, lengths).reshape([-1, TAGS])
        return _update(opt, F.cross_entropy(logits, y.reshape([-1]), ignore_index=-100))

    return _run(step, batches, compiled)


def case_lstm_tagger_eager():
    return _train_tagger(False)


def case_lstm_tagger_to_static():
    return _train_tagger(True)


# -- GRU encoder-decoder with attention, teacher forcing ------------------------------------
S_LEN, D_LEN, HID = 6, 5, 16
BOS = 1


class _Seq2Seq(nn.Layer):
    def __init__(self, mha=False):
        super().__init__()
        self.src_embed = nn.Embedding(VOCAB, 12)
        self.tgt_embed = nn.Embedding(VOCAB, 12)
        self.encoder = nn.GRU(12, HID)
        self.decoder = nn.GRU(12, HID)
        self.mha = mha
        self.attn = nn.MultiHeadAttention(HID, 2) if mha else nn.Linear(HID, HID, bias_attr=False)
        self.combine = nn.Linear(2 * HID, HID)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, src, src_len, tgt_in):
        enc, h = self.encoder(self.src_embed(src), sequence_length=src_len)
        dec, _ = self.decoder(self.tgt_embed(tgt_in), h)
        keep = paddle.arange(S_LEN).unsqueeze(0) < src_len.unsqueeze(1)
        if self.mha:
            context = self.attn(dec, enc, enc, attn_mask=keep.unsqueeze(1).unsqueeze(1))
            return self.out(paddle.tanh(self.combine(paddle.concat([dec, context], axis=-1))))
        # Luong "general" score: dec W enc^T, padded source positions masked out
        scores = paddle.bmm(self.attn(dec), enc.transpose([0, 2, 1]))
        scores = scores + (1.0 - keep.astype("float32")).unsqueeze(1) * -1e9
        context = paddle.bmm(F.softmax(scores, axis=-1), enc)
        h = paddle.tanh(self.combine(paddle.concat([dec, context], axis=-1)))
        return self.out(h)


def _train_seq2seq(compiled, mha=False):
    model = _scale(_Seq2Seq(mha), 41, 0.3)
    r = rng(42)
    batches = []
    for _ in range(3):
        src_len = r.integers(3, S_LEN + 1, BATCH).astype("int64")
        src = _tokens(r, src_len, S_LEN)
        tgt_len = r.integers(2, D_LEN + 1, BATCH)
        tgt = _tokens(r, tgt_len, D_LEN)
        tgt_in = np.concatenate([np.full((BATCH, 1), BOS, "int64"), tgt[:, :-1]], axis=1)
        batches.append((src, src_len, tgt_in, tgt))

    opt = _adamw(model, nn.ClipGradByGlobalNorm(0.25) if mha else None)

    def step(src, src_len, tgt_in, tgt):
        logits = model(src, src_len, tgt_in).reshape([-1, VOCAB])
        return _update(opt, F.cross_entropy(logits, tgt.reshape([-1]), ignore_index=PAD))

    return _run(step, batches, compiled)


def case_gru_seq2seq_attention_eager():
    return _train_seq2seq(False)


def case_gru_seq2seq_attention_to_static():
    return _train_seq2seq(True)


# the same with nn.MultiHeadAttention (bool key mask) and ClipGradByGlobalNorm(0.25)
def case_gru_seq2seq_mha_clipped_eager():
    return _train_seq2seq(False, mha=True)


def case_gru_seq2seq_mha_clipped_to_static():
    return _train_seq2seq(True, mha=True)
