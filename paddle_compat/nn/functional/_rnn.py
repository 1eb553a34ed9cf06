"""The recurrent kernels behind paddle.nn's SimpleRNN/LSTM/GRU and their cells (private ops).

``_nn_rnn`` runs whole layers: the input projection of every time step is one matmul, the time
loop is one ``jax.lax.scan`` per layer (the directions of a bidirectional layer are vmapped
through the same scan), so eager mode and ``to_static`` both compile one loop and the
gradient is the scan's VJP. ``_nn_rnn_cell`` is one step of a cell.

Gate layouts are Paddle's: LSTM rows [i, f, g(cell), o]; GRU rows [r, z, c] with the reset gate
applied after the hidden matmul (``c = tanh(x_c + r * (h @ W_hc + b_hc))``,
``h' = (h - c) * z + c``). With ``lengths``, a sequence's state stops changing at its length
and (``mask_out``) its outputs there are zero, as Paddle's fused ``rnn`` kernel does; the
reverse direction runs over the reversed padded sequence, so its padding steps come first and
leave the initial state unchanged.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._core.registry import op

_PRIVATE = dict(namespaces=(), method=None)
GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _step(mode: str, xw, h, c, w_hh, b_hh, w_ho):
    """One time step from the precomputed input projection ``xw = x @ W_ih^T + b_ih``."""
    hw = jnp.matmul(h, w_hh.T)
    if b_hh is not None:
        hw = hw + b_hh
    if mode == "LSTM":
        i, f, g, o = jnp.split(xw + hw, 4, axis=-1)
        c2 = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h2 = jax.nn.sigmoid(o) * jnp.tanh(c2)
        if w_ho is not None:
            h2 = jnp.matmul(h2, w_ho)
        return h2, c2
    if mode == "GRU":
        x_r, x_z, x_c = jnp.split(xw, 3, axis=-1)
        h_r, h_z, h_c = jnp.split(hw, 3, axis=-1)
        r = jax.nn.sigmoid(x_r + h_r)
        z = jax.nn.sigmoid(x_z + h_z)
        cand = jnp.tanh(x_c + r * h_c)
        return (h - cand) * z + cand, None
    a = xw + hw
    return (jnp.tanh(a) if mode == "RNN_TANH" else jax.nn.relu(a)), None


def _unpack(w):
    w_ih, w_hh, b_ih, b_hh = w[:4]
    return w_ih, w_hh, b_ih, b_hh, (w[4] if len(w) > 4 else None)


def _project(x, w_ih, b_ih):
    """Every time step's input projection at once: [T, B, I] -> [T, B, G * H]."""
    xw = jnp.einsum("tbi,gi->tbg", x, w_ih)
    return xw if b_ih is None else xw + b_ih


def _scan(mode, xw, mask, h0, c0, w, mask_out):
    """One direction over time: xw [T, B, G*H], mask [T, B, 1] bool or None."""
    _, w_hh, _, b_hh, w_ho = _unpack(w)

    def body(carry, inp):
        h, c = carry
        xt, mt = inp
        h2, c2 = _step(mode, xt, h, c, w_hh, b_hh, w_ho)
        out = h2
        if mt is not None:
            m = mt.astype(h2.dtype)
            h2 = h2 * m + h * (1 - m)
            if c2 is not None:
                c2 = c2 * m + c * (1 - m)
            if mask_out:
                out = out * m
        return (h2, c2), out

    (h_t, c_t), outs = jax.lax.scan(body, (h0, c0), (xw, mask))
    return outs, h_t, c_t


def _layer(mode, x, mask, h0s, c0s, cells, mask_out, is_reverse):
    """One layer of len(cells) directions on time-major x: the second direction runs over the
    reversed sequence (a lone direction too when ``is_reverse``)."""
    rev = [d == 1 or is_reverse for d in range(len(cells))]
    xws, masks = [], []
    for d, w in enumerate(cells):
        w_ih, _, b_ih, _, _ = _unpack(w)
        xw = _project(x, w_ih, b_ih)
        xws.append(xw[::-1] if rev[d] else xw)
        masks.append(None if mask is None else (mask[::-1] if rev[d] else mask))
    shapes = [[jnp.shape(a) for a in w] for w in cells]
    if len(cells) == 2 and shapes[0] == shapes[1]:  # both directions through one scan
        stack = lambda *a: None if a[0] is None else jnp.stack(a)  # noqa: E731
        outs, h_t, c_t = jax.vmap(
            lambda xw, m, h, c, w: _scan(mode, xw, m, h, c, w, mask_out),
        )(
            jnp.stack(xws),
            stack(*masks),
            jnp.stack(h0s),
            stack(*c0s),
            [jnp.stack(ws) for ws in zip(*cells)],
        )
        outs, h_t, c_t = list(outs), list(h_t), [None, None] if c_t is None else list(c_t)
    else:
        res = [_scan(mode, *a, mask_out) for a in zip(xws, masks, h0s, c0s, cells)]
        outs, h_t, c_t = (list(r) for r in zip(*res))
    outs = [o[::-1] if r else o for o, r in zip(outs, rev)]
    return jnp.concatenate(outs, axis=-1), h_t, c_t


@op(
    "_nn_rnn",
    tensors=("x", "h0", "c0", "weights", "lengths"),
    dtypes=("float32", "float64"),
    kernel="rnn",
    **_PRIVATE,
)
def rnn(
    x: jax.Array,
    h0,
    c0,
    weights,
    lengths: jax.Array | None,
    mode: str,
    num_directions: int,
    time_major: bool,
    mask_out: bool,
    state_offset: int = 0,
    is_reverse: bool = False,
):
    """Layers of a recurrent network. ``weights``: one list per cell, layer by layer and
    direction by direction: [W_ih, W_hh, b_ih, b_hh(, W_ho)]. ``h0``/``c0``: None (zeros), a
    stacked [L*D, B, H] array (this call uses rows ``state_offset`` on), or a list of one
    [B, H] array per direction (a single layer). ``is_reverse``: a single direction runs from
    the last step (``RNN(cell, is_reverse=True)``). Returns (outputs, h_T, c_T) with the states
    in the form they came in (c_T None except for LSTM)."""
    xt = x if time_major else jnp.swapaxes(x, 0, 1)
    steps, batch = xt.shape[0], xt.shape[1]
    mask = None
    if lengths is not None:
        mask = (jnp.arange(steps)[:, None] < lengths[None, :].astype(jnp.int64))[..., None]
    per_cell = isinstance(h0, list | tuple) or isinstance(c0, list | tuple)
    d = num_directions
    layers = len(weights) // d
    h_out, c_out = [], []
    for layer in range(layers):
        cells = weights[layer * d : (layer + 1) * d]
        h0s, c0s = [], []
        for j, w in enumerate(cells):
            hidden = w[0].shape[0] // GATES[mode]
            state = w[1].shape[1]  # the projected size for LSTM with proj_size
            row = state_offset + layer * d + j
            if h0 is None:
                h0s.append(jnp.zeros((batch, state), xt.dtype))
            else:
                h0s.append(h0[j] if per_cell else h0[row])
            if mode != "LSTM":
                c0s.append(None)
            elif c0 is None:
                c0s.append(jnp.zeros((batch, hidden), xt.dtype))
            else:
                c0s.append(c0[j] if per_cell else c0[row])
        xt, h_t, c_t = _layer(mode, xt, mask, h0s, c0s, cells, mask_out, is_reverse)
        h_out += h_t
        c_out += c_t
    out = xt if time_major else jnp.swapaxes(xt, 0, 1)
    if per_cell:
        return out, h_out, (c_out if mode == "LSTM" else None)
    return out, jnp.stack(h_out), (jnp.stack(c_out) if mode == "LSTM" else None)


@op("_nn_rnn_cell", tensors=("x", "h", "c", "weights"), **_PRIVATE)
def rnn_cell(x: jax.Array, h, c, weights, mode: str):
    """One step of a cell: (h', c') (c' None except for LSTM); zeros for missing states."""
    w_ih, w_hh, b_ih, b_hh, w_ho = _unpack(weights)
    batch = x.shape[:-1]
    if h is None:
        h = jnp.zeros((*batch, w_hh.shape[1]), x.dtype)
    if c is None and mode == "LSTM":
        c = jnp.zeros((*batch, w_ih.shape[0] // 4), x.dtype)
    xw = jnp.matmul(x, w_ih.T)
    if b_ih is not None:
        xw = xw + b_ih
    return _step(mode, xw, h, c, w_hh, b_hh, w_ho)
