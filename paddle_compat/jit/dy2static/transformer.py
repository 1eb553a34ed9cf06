"""The source transform of dynamic-to-static (as Paddle's dy2static does): a function's AST is
rewritten so that its control flow calls the runtime in ``convert_ops`` (imported as ``_jst``),
which runs plain Python when the condition is a Python value or a concrete Tensor and builds a
``lax.switch``/``lax.while_loop`` when it is a traced Tensor.

Passes, in order, over each function (nested ``def``s too):

1. returns inside ``if``/``for``/``while``/``with``/``try`` become a flag and a value
   (``__ret_flag``/``__ret_val``); the statements after a block that may return run under
   ``if not __ret_flag``; in loops a return also breaks;
2. ``for target in iterable`` (without ``else``) becomes an index ``while`` over
   ``_jst.ForIter(iterable)`` (a Python sequence, a Tensor's first axis, or a ``range`` whose
   bounds may be Tensors);
3. ``break``/``continue`` become flags (``__brk_N``/``__cnt_N``) checked by the loop condition
   and by ``if`` guards around the statements after them;
4. ``if``/``while`` bodies become nested functions over the variables they assign (by
   ``nonlocal``), called through ``_jst.convert_ifelse``/``_jst.convert_while`` with getter and
   setter functions; ``and``/``or``/``not`` and ``a if c else b`` call ``_jst.convert_logical_*``
   and ``_jst.convert_ifexp``; calls go through ``_jst.convert_call`` so user functions called
   from a converted one are converted too.
"""

from __future__ import annotations

import ast
import itertools
import linecache
import sys

_SKIP_CALLS = {"super", "locals", "globals", "vars", "eval", "exec", "isinstance",
               "len", "getattr", "setattr", "hasattr", "type", "id", "iter", "next",
               "enumerate", "zip", "list", "tuple", "dict", "set", "int", "float", "bool",
               "str", "min", "max", "abs", "sum", "sorted", "reversed", "map", "filter", "any",
               "all", "issubclass", "callable", "repr", "hash", "divmod", "round", "format"}  # fmt: skip
_LOOPS = (ast.For, ast.While, ast.AsyncFor)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPOUND = (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith)


class Unconvertible(Exception):
    """A function the transform leaves as it is (its reason in the message)."""


def _jst(attr: str) -> ast.Attribute:
    return ast.Attribute(ast.Name("_jst", ast.Load()), attr, ast.Load())


def _name(n: str, store: bool = False) -> ast.Name:
    return ast.Name(n, ast.Store() if store else ast.Load())


def _assign(n: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([_name(n, True)], value)


def _walk_scope(nodes):
    """Nodes of these statements, not entering nested functions, lambdas, classes or
    comprehensions."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        yield n  # a nested function or class: its name binds here, its body is its own
        if isinstance(n, _SCOPES + (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        stack.extend(ast.iter_child_nodes(n))


def assigned_names(stmts) -> list[str]:
    """Names these statements bind in their own scope, in order of first appearance."""
    out: dict[str, None] = {}
    for n in _walk_scope(stmts):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out[n.id] = None
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out[n.name] = None
        elif isinstance(n, ast.alias):
            out[(n.asname or n.name).split(".")[0]] = None
    return [k for k in sorted(out, key=list(out).index) if k != "_jst"]


def _contains(stmts, kinds, stop=()) -> bool:
    """Whether a node of ``kinds`` occurs in these statements, not entering nested scopes nor
    (when given) ``stop`` node types."""
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            return True
        for c in ast.iter_child_nodes(n):
            if not isinstance(c, _SCOPES + tuple(stop)):
                stack.append(c)
    return False


def _jumps_out(stmts, loop: bool = False) -> bool:
    """Whether these statements return, or break/continue a loop around them (``loop``: they
    are a loop body, whose own break/continue stay inside): such a block stays Python."""
    if _contains(stmts, ast.Return):
        return True
    return not loop and _contains(stmts, (ast.Break, ast.Continue), stop=_LOOPS)


class _Context:
    def __init__(self, filename: str):
        self.filename = filename
        self.ids = itertools.count()

    def where(self, node) -> str:
        line = linecache.getline(self.filename, node.lineno).strip()
        return f'File "{self.filename}", line {node.lineno}: {line}'


# -- 1. returns ---------------------------------------------------------------------------------
def _returns_nested(fn: ast.FunctionDef) -> bool:
    return any(_contains(s.body if hasattr(s, "body") else [], ast.Return)
               or _contains(getattr(s, "orelse", []), ast.Return)
               or any(_contains(h.body, ast.Return) for h in getattr(s, "handlers", []))
               or _contains(getattr(s, "finalbody", []), ast.Return)
               for s in fn.body if isinstance(s, _COMPOUND))  # fmt: skip


def transform_returns(fn: ast.FunctionDef) -> None:
    if not _returns_nested(fn):
        return
    body = _ret_block(fn.body, in_loop=False)
    fn.body = [
        _assign("__ret_flag", ast.Constant(False)),
        _assign("__ret_val", ast.Call(_jst("ReturnUnset"), [ast.Constant("return value")], [])),
        *body,
        ast.Return(ast.Call(_jst("return_value"), [_name("__ret_val")], [])),
    ]


def _ret_block(stmts, in_loop: bool) -> list:
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Return):
            out.append(ast.copy_location(_assign("__ret_flag", ast.Constant(True)), s))
            val = s.value if s.value is not None else ast.Constant(None)
            out.append(ast.copy_location(_assign("__ret_val", val), s))
            if in_loop:
                out.append(ast.copy_location(ast.Break(), s))
            return out
        may = isinstance(s, _COMPOUND) and _contains([s], ast.Return)
        if may:
            _ret_children(s, in_loop)
        out.append(s)
        rest = stmts[i + 1 :]
        if may and in_loop:  # leave the loop too (the statement may be an inner loop)
            out.append(ast.copy_location(ast.If(_name("__ret_flag"), [ast.Break()], []), s))
            out.extend(_ret_block(rest, in_loop))
            return out
        if may and rest:
            test = ast.UnaryOp(ast.Not(), _name("__ret_flag"))
            out.append(ast.copy_location(ast.If(test, _ret_block(rest, in_loop), []), rest[0]))
            return out
    return out


def _ret_children(s, in_loop: bool) -> None:
    loop = isinstance(s, _LOOPS) or in_loop
    for field in ("body", "orelse", "finalbody"):
        if hasattr(s, field) and getattr(s, field):
            inner_loop = loop if field == "body" or not isinstance(s, _LOOPS) else in_loop
            setattr(s, field, _ret_block(getattr(s, field), inner_loop) or [ast.Pass()])
    for h in getattr(s, "handlers", []):
        h.body = _ret_block(h.body, in_loop) or [ast.Pass()]


class _Pass(ast.NodeTransformer):
    """A transform pass over one function's own scope: nested functions, classes and lambdas
    are left alone (nested functions are transformed on their own)."""

    def __init__(self, ctx: _Context):
        self.ctx = ctx

    def _keep(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _keep


def _method(obj: str, name: str, *args) -> ast.Call:
    return ast.Call(ast.Attribute(_name(obj), name, ast.Load()), list(args), [])


# -- 2. for loops -------------------------------------------------------------------------------
class _ForToWhile(_Pass):
    def visit_For(self, node):
        self.generic_visit(node)
        if node.orelse:
            return node
        k = next(self.ctx.ids)
        it, idx = f"__for_it_{k}", f"__for_i_{k}"
        call = ast.Call(_jst("ForIter"), [node.iter, ast.Constant(self.ctx.where(node))], [])
        head = [_assign(it, call), _assign(idx, _method(it, "start"))]
        get = ast.Assign([node.target], _method(it, "get", _name(idx)))
        body = [get, _assign(idx, _method(it, "step", _name(idx))), *node.body]
        loop = ast.While(_method(it, "has_next", _name(idx)), body, [])
        return [ast.copy_location(s, node) for s in [*head, loop]]


# -- 3. break / continue ------------------------------------------------------------------------
class _BreakContinue(_Pass):
    def visit_While(self, node):
        self.generic_visit(node)
        if node.orelse:
            return node
        has_brk = _contains(node.body, ast.Break, stop=_LOOPS)
        has_cnt = _contains(node.body, ast.Continue, stop=_LOOPS)
        if not (has_brk or has_cnt):
            return node
        k = next(self.ctx.ids)
        brk, cnt = f"__brk_{k}", f"__cnt_{k}"
        flags = ([brk] if has_brk else []) + ([cnt] if has_cnt else [])
        body = _flag_block(node.body, brk, cnt, flags)
        if has_cnt:
            body = [_assign(cnt, ast.Constant(False)), *body]
        node.body = body
        head = []
        if has_brk:
            head.append(ast.copy_location(_assign(brk, ast.Constant(False)), node))
            node.test = ast.BoolOp(ast.And(), [node.test, ast.UnaryOp(ast.Not(), _name(brk))])
        return [*head, node]


def _flag_block(stmts, brk, cnt, flags) -> list:
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Break | ast.Continue):
            flag = brk if isinstance(s, ast.Break) else cnt
            out.append(ast.copy_location(_assign(flag, ast.Constant(True)), s))
            return out
        may = _contains([s], (ast.Break, ast.Continue), stop=_LOOPS)
        if may:
            for field in ("body", "orelse", "finalbody"):
                if getattr(s, field, None):
                    setattr(
                        s, field, _flag_block(getattr(s, field), brk, cnt, flags) or [ast.Pass()]
                    )
            for h in getattr(s, "handlers", []):
                h.body = _flag_block(h.body, brk, cnt, flags) or [ast.Pass()]
        out.append(s)
        rest = stmts[i + 1 :]
        if may and rest:
            names = [_name(f) for f in flags]
            cond = names[0] if len(names) == 1 else ast.BoolOp(ast.Or(), names)
            guard = ast.If(ast.UnaryOp(ast.Not(), cond), _flag_block(rest, brk, cnt, flags), [])
            out.append(ast.copy_location(guard, rest[0]))
            return out
    return out


# -- 4. if / while / expressions / calls ----------------------------------------------------------
class _ControlFlow(_Pass):
    def __init__(self, ctx: _Context, global_names: set[str]):
        super().__init__(ctx)
        self.globals = global_names

    def _decl(self, names) -> list:
        out = []
        local = [n for n in names if n not in self.globals]
        glob = [n for n in names if n in self.globals]
        if local:
            out.append(ast.Nonlocal(local))
        if glob:
            out.append(ast.Global(glob))
        return out

    def _getter_setter(self, k, names):
        get_body = []
        for j, n in enumerate(names):
            get_body.append(
                ast.Try(
                    [_assign(f"__v{j}", _name(n))],
                    [ast.ExceptHandler(_name("NameError"), None,
                                       [_assign(f"__v{j}", ast.Call(_jst("UndefinedVar"), [ast.Constant(n)], []))])],
                    [], [],
                )
            )  # fmt: skip
        elts = [_name(f"__v{j}") for j in range(len(names))]
        get_body.append(ast.Return(ast.Tuple(elts, ast.Load())))
        get_def = _def(f"__get_{k}", [], get_body)
        targets = ast.Tuple([_name(n, True) for n in names], ast.Store())
        set_body = (
            [*self._decl(names), ast.Assign([targets], _name("__vals"))] if names else [ast.Pass()]
        )
        set_def = _def(f"__set_{k}", ["__vals"], set_body)
        return get_def, set_def

    def visit_If(self, node):
        if _jumps_out(node.body + node.orelse):
            self.generic_visit(node)
            return node
        names = assigned_names(node.body + node.orelse)
        self.generic_visit(node)
        k = next(self.ctx.ids)
        true_def = _def(f"__true_fn_{k}", [], [*self._decl(names), *node.body])
        false_def = _def(
            f"__false_fn_{k}", [], [*self._decl(names), *(node.orelse or [ast.Pass()])]
        )
        defs = [true_def, false_def]
        return self._lowered(node, k, "convert_ifelse", defs, names, lead=[node.test])

    def visit_While(self, node):
        if node.orelse or _jumps_out(node.body, loop=True):
            self.generic_visit(node)
            return node
        names = assigned_names(node.body)
        self.generic_visit(node)
        k = next(self.ctx.ids)
        cond_def = _def(f"__cond_{k}", [], [ast.Return(node.test)])
        body_def = _def(f"__body_{k}", [], [*self._decl(names), *node.body])
        return self._lowered(node, k, "convert_while", [cond_def, body_def], names)

    def _lowered(self, node, k, helper: str, defs: list, names: list, lead=()) -> list:
        """``defs``, the getter and setter of ``names``, and the call
        ``_jst.<helper>(*lead, *defs, getter, setter, names, where)`` replacing ``node``."""
        get_def, set_def = self._getter_setter(k, names)
        args = [*lead, *(_name(d.name) for d in (*defs, get_def, set_def))]
        names_arg = ast.Tuple([ast.Constant(n) for n in names], ast.Load())
        call = ast.Call(_jst(helper), [*args, names_arg, ast.Constant(self.ctx.where(node))], [])
        return [ast.copy_location(s, node) for s in (*defs, get_def, set_def, ast.Expr(call))]

    def visit_Assert(self, node):
        self.generic_visit(node)
        msg = _lambda(node.msg) if node.msg is not None else ast.Constant(None)
        call = ast.Call(
            _jst("convert_assert"), [node.test, msg, ast.Constant(self.ctx.where(node))], []
        )
        return ast.copy_location(ast.Expr(call), node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        if _contains(node.values, ast.NamedExpr):
            return node
        fn = "convert_logical_and" if isinstance(node.op, ast.And) else "convert_logical_or"
        lambdas = [_lambda(v) for v in node.values]
        return ast.copy_location(ast.Call(_jst(fn), lambdas, []), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return ast.copy_location(ast.Call(_jst("convert_logical_not"), [node.operand], []), node)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        if _contains([node], ast.NamedExpr):
            return node
        args = [
            node.test,
            _lambda(node.body),
            _lambda(node.orelse),
            ast.Constant(self.ctx.where(node)),
        ]
        return ast.copy_location(ast.Call(_jst("convert_ifexp"), args, []), node)

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id in _SKIP_CALLS:
            return node
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "_jst":
            return node
        if not isinstance(f, ast.Name | ast.Attribute):
            return node
        node.func = ast.copy_location(ast.Call(_jst("convert_call"), [f], []), f)
        return node


def _def(name: str, args: list[str], body: list) -> ast.FunctionDef:
    a = ast.arguments([], [ast.arg(x) for x in args], None, [], [], None, [])
    fn = ast.FunctionDef(name=name, args=a, body=body, decorator_list=[], returns=None)
    if sys.version_info >= (3, 12):
        fn.type_params = []
    return fn


def _lambda(expr) -> ast.Lambda:
    return ast.Lambda(ast.arguments([], [], None, [], [], None, []), expr)


# -- driver -------------------------------------------------------------------------------------
def transform_function(fn: ast.FunctionDef, filename: str, dump=None) -> list[str]:
    """Rewrite ``fn`` (and its nested functions) in place; returns the names of ``fn``'s scope
    that need a binding at its top (so that the generated functions' ``nonlocal`` resolve).
    ``dump(k, fn)`` is called after pass ``k`` (1-4) of ``fn`` itself."""
    if _contains(fn.body, (ast.Yield, ast.YieldFrom, ast.Await)):
        raise Unconvertible("generators and coroutines are not converted")
    ctx = _Context(filename)
    return _transform(fn, ctx, dump or (lambda k, f: None))


def _transform(fn, ctx: _Context, dump=lambda k, f: None) -> list[str]:
    for n in _walk_scope(fn.body):  # nested functions first, each its own scope
        if isinstance(n, ast.FunctionDef) and not _contains(n.body, (ast.Yield, ast.YieldFrom)):
            need = _transform(n, ctx)
            n.body = _bindings(need) + n.body
    transform_returns(fn)
    dump(1, fn)
    fn.body = _visit_block(_ForToWhile(ctx), fn.body)
    dump(2, fn)
    fn.body = _visit_block(_BreakContinue(ctx), fn.body)
    dump(3, fn)
    global_names = {g for n in _walk_scope(fn.body) if isinstance(n, ast.Global) for g in n.names}
    declared = global_names | {
        g for n in _walk_scope(fn.body) if isinstance(n, ast.Nonlocal) for g in n.names
    }
    _explicit_super(fn)
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    params |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    names = [n for n in assigned_names(fn.body) if n not in declared and n not in params]
    fn.body = _visit_block(_ControlFlow(ctx, global_names), fn.body)
    dump(4, fn)
    return names


def _explicit_super(fn) -> None:
    """``super()`` -> ``super(__class__, self)``: the zero-argument form does not work from the
    nested functions the branches become."""
    first = (fn.args.posonlyargs + fn.args.args)[:1]
    if not first:
        return
    for n in _walk_scope(fn.body):
        if (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id == "super"
            and not n.args
            and not n.keywords
        ):
            n.args = [_name("__class__"), _name(first[0].arg)]


def _visit_block(tr: ast.NodeTransformer, stmts) -> list:
    out = []
    for s in stmts:
        r = tr.visit(s)
        if r is None:
            continue
        out.extend(r if isinstance(r, list) else [r])
    return out


def _bindings(names: list[str]) -> list:
    """``if False: a = b = None``: makes the names locals of the function (so nested
    ``nonlocal`` declarations resolve) without running anything."""
    if not names:
        return []
    targets = [_name(n, True) for n in names]
    return [ast.If(ast.Constant(False), [ast.Assign(targets, ast.Constant(None))], [])]
