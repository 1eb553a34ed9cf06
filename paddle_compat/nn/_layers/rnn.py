"""Recurrent layers: the cells SimpleRNNCell/LSTMCell/GRUCell, the wrappers RNN/BiRNN, and the
networks SimpleRNN/LSTM/GRU (a LayerList of RNN/BiRNN layers, as in Paddle).

Every built-in cell runs through the scanned kernel of ``nn/functional/_rnn.py``: a network
is one ``_nn_rnn`` op (one per layer when inter-layer dropout is active), ``RNN``/``BiRNN``
around a built-in cell are one op too. A user's own cell (any other ``RNNCellBase``, or a
built-in one with forward hooks) runs step by step in Python, as Paddle's dynamic graph does.

Parameters and ``state_dict`` keys are Paddle's: each cell holds ``weight_ih`` [G*H, I],
``weight_hh`` [G*H, H (or proj_size)], ``bias_ih``/``bias_hh`` [G*H] (``weight_ho``
[H, proj_size] for a projected LSTM), all Uniform(-1/sqrt(H), 1/sqrt(H)) created in Paddle's
order, so ``paddle.seed(n)`` gives Paddle's weights; a network also registers them under the
flat names ``weight_ih_l{k}[_reverse]`` (zipped with its parameters exactly as Paddle does),
so its state_dict holds both spellings of each tensor.
"""

from __future__ import annotations

import math
from typing import Any

from ..._core.registry import call_op
from ..._core.runtime_checks import check_in_range
from ..._core.tensor import Tensor
from .. import functional as F
from .._layer import Layer
from ..functional import _rnn
from ..initializer import Constant, Uniform
from ._base import default_dtype_name
from .container import LayerList

__all__ = [
    "RNNCellBase",
    "SimpleRNNCell",
    "LSTMCell",
    "GRUCell",
    "RNN",
    "BiRNN",
    "SimpleRNN",
    "LSTM",
    "GRU",
]

_BIDIRECTIONAL = ("bidirectional", "bidirect")


# -- nested structures of Tensors -------------------------------------------------------------
def _flatten(s) -> list:
    if isinstance(s, list | tuple):
        return [t for x in s for t in _flatten(x)]
    return [s]


def _map(fn, *s):
    if isinstance(s[0], list | tuple):
        return type(s[0])(_map(fn, *xs) for xs in zip(*s))
    return fn(*s)


# -- cells ------------------------------------------------------------------------------------
class RNNCellBase(Layer):
    """Base class of RNN cells: ``get_initial_states`` from ``state_shape``/``state_dtype``."""

    def get_initial_states(
        self,
        batch_ref,
        shape=None,
        dtype=None,
        init_value: float = 0.0,
        batch_dim_idx: int = 0,
    ):
        """States filled with ``init_value``, of ``shape`` (a shape or nested shapes, -1 or
        nothing in front for the batch, taken from ``batch_ref.shape[batch_dim_idx]``)."""
        batch = _flatten(batch_ref)[0].shape[batch_dim_idx]
        shapes = self.state_shape if shape is None else shape
        try:
            dtypes = self.state_dtype if dtype is None else dtype
        except NotImplementedError:
            dtypes = default_dtype_name()

        def is_shape(s) -> bool:
            return isinstance(s, list | tuple) and all(isinstance(v, int) for v in s)

        def full(s, dt):
            s = list(s)
            s = [batch, *s[1:]] if s and s[0] == -1 else [batch, *s]
            return call_op("full", s, init_value, dt)

        def build(s, dt):
            if is_shape(s):
                return full(s, dt)
            dts = dt if isinstance(dt, list | tuple) else [dt] * len(s)
            return type(s)(build(x, d) for x, d in zip(s, dts))

        return build(shapes, dtypes)

    @property
    def state_shape(self):
        raise NotImplementedError("Please add implementation for `state_shape` in the used cell.")

    @property
    def state_dtype(self):
        raise NotImplementedError("Please add implementation for `state_dtype` in the used cell.")


class _BuiltinCell(RNNCellBase):
    """Parameters and one-step forward shared by the three built-in cells."""

    _gates = 1

    def _create(self, input_size, hidden_size, attrs, proj_size: int = 0) -> None:
        if hidden_size <= 0:
            raise ValueError(
                f"hidden_size of {type(self).__name__} must be greater than 0, but now equals "
                f"to {hidden_size}"
            )
        std = 1.0 / math.sqrt(hidden_size)
        g = self._gates * hidden_size
        dt = default_dtype_name()
        shapes = [(g, input_size), (g, proj_size or hidden_size), (g,), (g,)]
        for name, shape, attr in zip(
            ("weight_ih", "weight_hh", "bias_ih", "bias_hh"), shapes, attrs
        ):
            bias = name.startswith("bias")
            if attr is not False:
                p = self.create_parameter(
                    shape, attr, dt, is_bias=bias, default_initializer=Uniform(-std, std)
                )
            else:  # Paddle keeps a frozen constant in place of a disabled weight/bias
                p = self.create_parameter(
                    shape,
                    None,
                    dt,
                    is_bias=bias,
                    default_initializer=Constant(0.0 if bias else 1.0),
                )
                p.stop_gradient = True
            setattr(self, name, p)
        self.proj_size = proj_size
        if proj_size > 0:
            self.weight_ho = self.create_parameter(
                (hidden_size, proj_size), attrs[1], dt, default_initializer=Uniform(-std, std)
            )
        self.input_size, self.hidden_size = input_size, hidden_size

    def _weights(self) -> list:
        w = [self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh]
        return w + [self.weight_ho] if self.proj_size > 0 else w

    def _step(self, inputs, h, c=None):
        if inputs.shape[-1] != self.input_size:
            raise ValueError(
                f"(InvalidArgument) {type(self).__name__}: the last dimension of inputs "
                f"[{inputs.shape[-1]}] should equal its input_size [{self.input_size}], but "
                f"received inputs of shape {list(inputs.shape)}."
            )
        _check_cell_state(self, inputs.shape[:-1], h, "states" if c is None else "states[0]")
        if c is not None:
            _check_cell_state(self, inputs.shape[:-1], c, "states[1]", self.hidden_size)
        return _rnn.rnn_cell(inputs, h, c, self._weights(), self._mode)

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


def _check_cell_state(cell, batch, state, what: str, size: int | None = None) -> None:
    if state is None or not hasattr(state, "shape"):
        return
    size = size or cell.weight_hh.shape[1]
    if list(state.shape) != [*batch, size]:
        raise ValueError(
            f"(InvalidArgument) {type(cell).__name__}: {what} should have shape "
            f"{[*batch, size]} ([batch_size, hidden_size]), but received "
            f"{list(state.shape)} (last dimension [{state.shape[-1]}], hidden_size [{size}])."
        )


class SimpleRNNCell(_BuiltinCell):
    """h' = act(x @ W_ih^T + b_ih + h @ W_hh^T + b_hh), act tanh or relu."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        activation: str = "tanh",
        weight_ih_attr=None,
        weight_hh_attr=None,
        bias_ih_attr=None,
        bias_hh_attr=None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._create(
            input_size, hidden_size, (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        )
        if activation not in ("tanh", "relu"):
            raise ValueError(
                f"activation for SimpleRNNCell should be tanh or relu, but get {activation}"
            )
        self.activation = activation

    @property
    def _mode(self) -> str:
        return "RNN_TANH" if self.activation == "tanh" else "RNN_RELU"

    def forward(self, inputs, states=None):
        h, _ = self._step(inputs, states)
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self) -> str:
        s = super().extra_repr()
        return s if self.activation == "tanh" else s + f", activation={self.activation}"


class LSTMCell(_BuiltinCell):
    """Paddle's LSTM step, gate rows [i, f, g, o]; returns ``(h, (h, c))`` (with
    ``proj_size``, h = (o * tanh(c)) @ weight_ho)."""

    _gates = 4
    _mode = "LSTM"

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        weight_ih_attr=None,
        weight_hh_attr=None,
        bias_ih_attr=None,
        bias_hh_attr=None,
        proj_size: int = 0,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if hidden_size <= 0:
            raise ValueError(
                f"hidden_size of LSTMCell must be greater than 0, but now equals to {hidden_size}"
            )
        if proj_size < 0:
            raise ValueError(
                f"proj_size of LSTMCell must be greater than 0, but now equals to {proj_size}"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size must be smaller than hidden_size")
        self._create(
            input_size,
            hidden_size,
            (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr),
            proj_size,
        )

    def forward(self, inputs, states=None):
        h0, c0 = (None, None) if states is None else states
        h, c = self._step(inputs, h0, c0)
        return h, (h, c)

    @property
    def state_shape(self):
        # Paddle's order (its h entry is hidden_size even with a projection)
        return ((self.hidden_size,), (self.proj_size or self.hidden_size,))


class GRUCell(_BuiltinCell):
    """Paddle's GRU step, gate rows [r, z, c], reset gate applied after the hidden matmul;
    returns ``(h, h)``."""

    _gates = 3
    _mode = "GRU"

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        weight_ih_attr=None,
        weight_hh_attr=None,
        bias_ih_attr=None,
        bias_hh_attr=None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._create(
            input_size, hidden_size, (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        )

    def forward(self, inputs, states=None):
        h, _ = self._step(inputs, states)
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)


_BUILTIN_FORWARDS = {SimpleRNNCell.forward, LSTMCell.forward, GRUCell.forward}


def _scannable(*cells) -> bool:
    """Built-in cells whose forward nobody replaced or hooked: one scanned kernel for all."""
    return (
        all(
            isinstance(c, _BuiltinCell)
            and type(c).forward in _BUILTIN_FORWARDS
            and "forward" not in c.__dict__
            and not c._forward_pre_hooks
            and not c._forward_post_hooks
            for c in cells
        )
        and len({c._mode for c in cells}) == 1
    )


def _check_lengths(sequence_length, inputs, time_major: bool) -> None:
    """sequence_length: an int Tensor [batch_size] of lengths in [0, time_steps]."""
    if sequence_length is None:
        return
    if not isinstance(sequence_length, Tensor):
        raise ValueError(
            "(InvalidArgument) rnn(): argument 'sequence_length' (position 3) must be Tensor, "
            f"but got {type(sequence_length).__name__}"
        )
    if sequence_length.dtype.name not in ("int32", "int64"):
        raise ValueError(
            "(InvalidArgument) The dtype of Tensor sequence_length must be int32 or int64, but "
            f"received: {sequence_length.dtype.name}"
        )
    shape, batch = list(sequence_length.shape), inputs.shape[1 if time_major else 0]
    steps = inputs.shape[0 if time_major else 1]
    if not all(isinstance(v, int) for v in [*shape, batch, steps]):
        return  # symbolic sizes (jit.save with dynamic dimensions)
    if shape != [batch]:
        raise ValueError(
            "(InvalidArgument) The size of SequenceLength has to equal the batch_size. But "
            f"received batch_size is {batch} and the size of SequenceLength is "
            f"{shape[0] if shape else 0} (sequence_length shape {shape})."
        )
    msg = f"The values of sequence_length should be in [0, time_steps = {steps}], but received"
    # (Paddle 3.3.1 aborts the process on a length past the time steps)
    check_in_range(sequence_length, 0, steps + 1, ValueError, msg + " {bad} (position {pos}).")


def _check_input(inputs, input_size: int, who: str, time_major: bool) -> None:
    if not isinstance(inputs, Tensor) or len(inputs.shape) != 3:
        shape = list(inputs.shape) if hasattr(inputs, "shape") else type(inputs).__name__
        layout = (
            "[time_steps, batch_size, input_size]"
            if time_major
            else ("[batch_size, time_steps, input_size]")
        )
        raise ValueError(
            f"(InvalidArgument) The inputs of {who} should be a 3-D Tensor {layout}, but "
            f"received shape {shape} (rank {len(shape) if isinstance(shape, list) else '?'})."
        )
    if inputs.shape[-1] != input_size:
        raise ValueError(
            f"(InvalidArgument) The last dimension of the inputs of {who} should equal its "
            f"input_size {input_size}, but received {inputs.shape[-1]} (inputs shape "
            f"{list(inputs.shape)})."
        )


# -- RNN / BiRNN ------------------------------------------------------------------------------
def _python_rnn(cell, inputs, states, lengths, time_major, is_reverse, **kwargs):
    """Paddle's dynamic-graph time loop for any cell: cell(x_t, states) step by step; with
    lengths a sequence's states stop changing past its length (its outputs are left as the
    cell computed them)."""
    if states is None:
        states = cell.get_initial_states(batch_ref=inputs, batch_dim_idx=1 if time_major else 0)
    x = inputs if time_major else _map(lambda t: call_op("transpose", t, [1, 0, 2]), inputs)
    steps = _flatten(x)[0].shape[0]
    mask = None
    if lengths is not None:
        mask = call_op("sequence_mask", lengths, steps, _flatten(x)[0].dtype)
        mask = call_op("transpose", mask, [1, 0])
    if is_reverse:
        x = _map(lambda t: call_op("flip", t, [0]), x)
        mask = None if mask is None else call_op("flip", mask, [0])
    outputs = []
    for i in range(steps):
        out, new = cell(_map(lambda t, i=i: t[i], x), states, **kwargs)
        if mask is not None:
            m = call_op("unsqueeze", mask[i], -1)
            new = _map(lambda s, n, m=m: n * m + s * (1 - m), states, new)
        states = new
        outputs.append(out)
    axis = 0 if time_major else 1
    final = _map(lambda *ts: call_op("stack", list(ts), axis), *outputs)
    if is_reverse:
        final = _map(lambda t: call_op("flip", t, [axis]), final)
    return final, states


def _split_cell_states(mode, states):
    """A cell's states -> ([h], [c] or None) in the kernel's per-cell form."""
    if states is None:
        return None, None
    if mode == "LSTM":
        h, c = states
        return [h], [c]
    return [states], None


class RNN(Layer):
    """Runs ``cell`` over the time steps of its input (``is_reverse``: from the last step)."""

    def __init__(self, cell: RNNCellBase, is_reverse: bool = False, time_major: bool = False):
        super().__init__()
        self.cell = cell
        if not hasattr(self.cell, "call"):
            self.cell.call = self.cell.forward
        self.is_reverse, self.time_major = is_reverse, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        cell = self.cell
        if kwargs or not _scannable(cell) or not isinstance(inputs, Tensor):
            return _python_rnn(
                cell,
                inputs,
                initial_states,
                sequence_length,
                self.time_major,
                self.is_reverse,
                **kwargs,
            )
        _check_input(inputs, cell.input_size, "RNN", self.time_major)
        _check_lengths(sequence_length, inputs, self.time_major)
        return _cells_scan(
            [cell], inputs, [initial_states], sequence_length, self.time_major, self.is_reverse
        )


def _cells_scan(cells, inputs, states, lengths, time_major, is_reverse=False):
    """RNN/BiRNN over built-in cells as one kernel: per-cell states in, per-cell states out."""
    mode = cells[0]._mode
    hs, cs = [], []
    for cell, st in zip(cells, states):
        h, c = _split_cell_states(mode, st)
        if h is not None:
            batch = [inputs.shape[1 if time_major else 0]]
            _check_cell_state(cell, batch, h[0], "initial_states (h)")
            if c is not None:
                _check_cell_state(cell, batch, c[0], "initial_states (c)", cell.hidden_size)
        hs.append(None if h is None else h[0])
        cs.append(None if c is None else c[0])
    if any(h is None for h in hs):  # a missing state: Paddle's zeros of the cell's shape
        batch = inputs.shape[1 if time_major else 0]
        for i, cell in enumerate(cells):
            if hs[i] is None:
                hs[i] = call_op("zeros", [batch, cell.weight_hh.shape[1]], inputs.dtype)
            if mode == "LSTM" and cs[i] is None:
                cs[i] = call_op("zeros", [batch, cell.hidden_size], inputs.dtype)
    out, h_t, c_t = _rnn.rnn(
        inputs,
        hs,
        cs if mode == "LSTM" else None,
        [c._weights() for c in cells],
        lengths,
        mode,
        len(cells),
        time_major,
        False,
        0,
        is_reverse,
    )
    finals = [(h, c) for h, c in zip(h_t, c_t)] if mode == "LSTM" else list(h_t)
    return out, finals[0] if len(cells) == 1 else tuple(finals)


class BiRNN(Layer):
    """A forward and a backward RNN over the same input, outputs concatenated on the last
    axis; final states ``(states_fw, states_bw)``."""

    def __init__(self, cell_fw: RNNCellBase, cell_bw: RNNCellBase, time_major: bool = False):
        super().__init__()
        self.cell_fw, self.cell_bw = cell_fw, cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(
                f"input size of forward cell({cell_fw.input_size}) does not equals"
                f"that of backward cell({cell_bw.input_size})"
            )
        for cell in (self.cell_fw, self.cell_bw):
            if not hasattr(cell, "call"):
                cell.call = cell.forward
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        if isinstance(initial_states, list | tuple) and len(initial_states) != 2:
            raise AssertionError("length of initial_states should be 2 when it is a list/tuple")
        cells = [self.cell_fw, self.cell_bw]
        if not kwargs and _scannable(*cells) and isinstance(inputs, Tensor):
            _check_input(inputs, self.cell_fw.input_size, "BiRNN", self.time_major)
            _check_lengths(sequence_length, inputs, self.time_major)
            states = [None, None] if initial_states is None else list(initial_states)
            return _cells_scan(cells, inputs, states, sequence_length, self.time_major)
        if initial_states is None:  # Paddle builds both from the forward cell
            dim = 1 if self.time_major else 0
            st_fw = self.cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=dim)
            st_bw = self.cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=dim)
        else:
            st_fw, st_bw = initial_states
        out_fw, st_fw = _python_rnn(
            self.cell_fw, inputs, st_fw, sequence_length, self.time_major, False, **kwargs
        )
        out_bw, st_bw = _python_rnn(
            self.cell_bw, inputs, st_bw, sequence_length, self.time_major, True, **kwargs
        )
        out = _map(lambda a, b: call_op("concat", [a, b], -1), out_fw, out_bw)
        return out, (st_fw, st_bw)


# -- SimpleRNN / LSTM / GRU -------------------------------------------------------------------
class RNNBase(LayerList):
    """The multi-layer network shared by SimpleRNN, LSTM and GRU: a list of RNN (or BiRNN)
    layers; forward runs them all in the scanned kernel."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr=None,
        weight_hh_attr=None,
        bias_ih_attr=None,
        bias_hh_attr=None,
        proj_size: int = 0,
    ) -> None:
        super().__init__()
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major, self.num_layers = time_major, num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        kwargs: dict[str, Any] = dict(
            weight_ih_attr=weight_ih_attr,
            weight_hh_attr=weight_hh_attr,
            bias_ih_attr=bias_ih_attr,
            bias_hh_attr=bias_hh_attr,
        )
        if mode == "LSTM":
            cls, kwargs["proj_size"] = LSTMCell, proj_size
        elif mode == "GRU":
            cls = GRUCell
        else:
            cls, kwargs["activation"] = SimpleRNNCell, ("relu" if mode == "RNN_RELU" else "tanh")
        in_size = proj_size or hidden_size
        if direction == "forward":
            for i in range(num_layers):
                cell = cls(input_size if i == 0 else in_size, hidden_size, **kwargs)
                self.append(RNN(cell, False, time_major))
        elif direction in _BIDIRECTIONAL:
            for i in range(num_layers):
                size = input_size if i == 0 else 2 * in_size
                fw = cls(size, hidden_size, **kwargs)
                bw = cls(size, hidden_size, **kwargs)
                self.append(BiRNN(fw, bw, time_major))
        else:
            raise ValueError(
                "direction should be forward or bidirect (or bidirectional), "
                f"received direction = {direction}"
            )
        n_params = len(self.parameters())
        self.could_use_cudnn = n_params == num_layers * 4 * self.num_directions
        # Paddle also registers the parameters under flat names, zipping its name list (which
        # skips disabled biases) with all parameters in order: kept as is for its state_dict
        names: list[str] = []
        for layer in range(num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                names += ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias_ih_attr is not False:
                    names.append("bias_ih_l{}{}")
                if bias_hh_attr is not False:
                    names.append("bias_hh_l{}{}")
                names = [n.format(layer, suffix) for n in names]
        for name, param in zip(names, self.parameters()):
            setattr(self, name, param)

    def flatten_parameters(self) -> None:
        """Paddle packs the weights for cuDNN here; the scanned kernel needs no packing."""

    def _cells(self) -> list:
        return [
            c
            for layer in self
            for c in ((layer.cell_fw, layer.cell_bw) if isinstance(layer, BiRNN) else (layer.cell,))
        ]

    def _check_states(self, inputs, states) -> tuple:
        """initial_states -> (h, c or None), checked as Paddle's rnn kernel checks them."""
        lstm = self.mode == "LSTM"
        if isinstance(states, Tensor):
            states = [states]
        states = list(states)
        if len(states) != self.state_components:
            raise ValueError(
                f"(InvalidArgument) The number of tensors in PreState of {self.mode} should be "
                f"{self.state_components}, but received {len(states)}."
            )
        batch = inputs.shape[1 if self.time_major else 0]
        rows = self.num_layers * self.num_directions
        sizes = [self.proj_size or self.hidden_size, self.hidden_size]
        names = ["initial_states[0] (h)", "initial_states[1] (c)"] if lstm else ["initial_states"]
        for i, s in enumerate(states):
            if not isinstance(s, Tensor) or len(s.shape) != 3:
                raise ValueError(
                    f"(InvalidArgument) {names[i]} of {type(self).__name__} should be a 3-D "
                    f"Tensor [num_layers * num_directions, batch_size, hidden_size], but received "
                    f"{list(s.shape) if hasattr(s, 'shape') else type(s).__name__}"
                    f"{f' (rank {len(s.shape)})' if hasattr(s, 'shape') else ''}."
                )
            if s.shape[1] != batch:
                raise ValueError(
                    "(InvalidArgument) The second dimension size (representing for batch size) "
                    f"of Input and PreState should be equal. But received {batch} and "
                    f"{s.shape[1]}."
                )
            if s.shape[0] != rows:
                raise ValueError(
                    "(InvalidArgument) The num_layers of in RNN layer must be the same as first "
                    f"dim of init hidden, but received num_layers:{rows}, dim:{s.shape[0]}"
                )
            if s.shape[2] != sizes[i]:
                what = "proj_size" if i == 0 and self.proj_size else "hidden_size"
                raise ValueError(
                    f"(InvalidArgument) The last dimension of {names[i]} should equal the "
                    f"{what} of {type(self).__name__} ({sizes[i]}), but received shape "
                    f"{list(s.shape)}."
                )
        if inputs.dtype != states[0].dtype:
            raise ValueError(
                f"(InvalidArgument) The dtype of initial_states ({states[0].dtype.name}) should "
                f"be the same as the dtype of inputs ({inputs.dtype.name})."
            )
        return states[0], (states[1] if lstm else None)

    def forward(self, inputs, initial_states=None, sequence_length=None):
        _check_input(inputs, self.input_size, type(self).__name__, self.time_major)
        _check_lengths(sequence_length, inputs, self.time_major)
        weight_dtype = self.parameters()[0].dtype
        if inputs.dtype != weight_dtype and inputs.dtype.name in ("float32", "float64"):
            raise ValueError(
                f"(InvalidArgument) The type of data we are trying to retrieve "
                f"({inputs.dtype.name}) does not match the type of data ({weight_dtype.name}) "
                "currently contained in the container."
            )
        h0 = c0 = None
        if initial_states is not None:
            h0, c0 = self._check_states(inputs, initial_states)
        weights = [c._weights() for c in self._cells()]
        # Paddle's fused kernel zeroes outputs past a sequence's length; its per-layer path
        # (a projected LSTM) leaves them as computed
        mask_out = self.could_use_cudnn
        d = self.num_directions
        args = (self.mode, d, self.time_major, mask_out)
        if not (self.training and self.dropout > 0 and self.num_layers > 1):
            out, h_t, c_t = _rnn.rnn(inputs, h0, c0, weights, sequence_length, *args)
        else:  # dropout between layers: one kernel per layer
            x, hs, cs = inputs, [], []
            for layer in range(self.num_layers):
                if layer > 0:
                    x = F.dropout(x, self.dropout, training=True, mode="upscale_in_train")
                x, h, c = _rnn.rnn(
                    x,
                    h0,
                    c0,
                    weights[layer * d : (layer + 1) * d],
                    sequence_length,
                    *args,
                    layer * d,
                )
                hs.append(h)
                cs.append(c)
            out = x
            h_t = call_op("concat", hs, 0)
            c_t = call_op("concat", cs, 0) if self.mode == "LSTM" else None
        return out, ((h_t, c_t) if self.mode == "LSTM" else h_t)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    """Multi-layer Elman network: h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh) per layer."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        activation: str = "tanh",
        weight_ih_attr=None,
        weight_hh_attr=None,
        bias_ih_attr=None,
        bias_hh_attr=None,
        name: str | None = None,
    ) -> None:
        if activation not in ("tanh", "relu"):
            raise ValueError(f"Unknown activation '{activation}'")
        super().__init__(
            "RNN_TANH" if activation == "tanh" else "RNN_RELU",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            0,
        )
        self.activation = activation


class LSTM(RNNBase):
    """Multi-layer LSTM; ``forward`` returns ``(outputs, (h, c))`` with h and c of shape
    [num_layers * num_directions, batch, hidden_size (h: proj_size if set)]."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr=None,
        weight_hh_attr=None,
        bias_ih_attr=None,
        bias_hh_attr=None,
        proj_size: int = 0,
        name: str | None = None,
    ) -> None:
        super().__init__(
            "LSTM",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            proj_size,
        )


class GRU(RNNBase):
    """Multi-layer GRU; ``forward`` returns ``(outputs, h)``."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        direction: str = "forward",
        time_major: bool = False,
        dropout: float = 0.0,
        weight_ih_attr=None,
        weight_hh_attr=None,
        bias_ih_attr=None,
        bias_hh_attr=None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            "GRU",
            input_size,
            hidden_size,
            num_layers,
            direction,
            time_major,
            dropout,
            weight_ih_attr,
            weight_hh_attr,
            bias_ih_attr,
            bias_hh_attr,
            0,
        )
