"""The one way the product reads a file a player gives it.

Designs, forces, scenarios, plans, rosters (JSON or YAML, or standard input), dice files
and backups are all read here, with the same limits and the same wording of every problem
("FILE: line N (where.in.it): what is wrong"), as ``InputError`` (exit status 2):

- Only a regular file is opened. A folder, a FIFO, a device such as ``/dev/zero`` or a
  socket is refused before a byte is read (it is looked at with ``stat`` and opened without
  blocking), so nothing waits forever on a pipe or reads an endless device.
- Each kind of file has a size limit (``Kind.limit``); a larger file is refused, and no more
  than the limit (and one byte) is ever read, even from a file that grows meanwhile.
- The text must be UTF-8 (a byte-order mark is allowed).
- YAML is read safely: only plain data. Tags (``!!python/...``, ``!!set``...) are refused,
  and so are anchors and aliases (``&name``, ``*name``): none of our files needs them, and
  a few hundred bytes of nested aliases expand to gigabytes. These are found in the
  parser's events, before any data is built.
- Lists and mappings may nest at most ``MAX_DEPTH`` deep, whole numbers may have at most
  ``MAX_DIGITS`` digits (Python refuses to read ones past 4,300 digits at all).
- Every text in the data, keys included, is checked for control characters
  (``meks.game.text``): tabs and line breaks are allowed, NUL, ESC, DEL and the other control
  characters are not. The refusal names the place of the text.

The product's own package data (the catalog, the built-in scenarios) is trusted and read
by ``meks.game.yamlio`` instead, which is faster.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from db.errors import SQLITE_HEADER
from meks.game.errors import InputError, dotted, json_words, os_problem, place, problem
from meks.game.text import FILE_WHITESPACE, control_pattern, describe

__all__ = ["dotted", "place", "problem"]  # the one wording of a problem, from meks.game.errors

MIB = 1024 * 1024
MAX_DEPTH = 100  # lists and mappings inside each other; our files need fewer than 10
MAX_DIGITS = 100  # digits of a whole number; ours need at most 19 (a seed)

_Loader: type[yaml.SafeLoader | yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()
_INT_TAG = "tag:yaml.org,2002:int"
_CONTROL = control_pattern(FILE_WHITESPACE)
_RAW_CONTROL = control_pattern(FILE_WHITESPACE + "\r")  # in the file itself, CRLF ends lines


@dataclass(frozen=True)
class Kind:
    """A kind of file the product reads: what to call it and how large it may be."""

    name: str  # "scenario file", as messages name it
    limit: int  # bytes
    hint: str = ""  # said after a problem that makes the whole file unreadable


DESIGN = Kind("design file", 2 * MIB)
FORCE = Kind("force file", 2 * MIB)
SCENARIO = Kind("scenario file", 2 * MIB)
PLAN = Kind("plan file", 2 * MIB)
YAML_FILE = Kind("YAML file", 2 * MIB)
DICE = Kind("dice file", 1 * MIB)
ROSTER = Kind("roster file", 16 * MIB,
              "a roster file is JSON or YAML as 'meks roster export' writes it")
BACKUP = Kind("backup", 1024 * MIB, "a backup is the JSON file 'meks db backup' writes")


def _refuse(source: str, what: str, kind: Kind | None = None) -> InputError:
    if kind is not None and kind.hint:
        what = f"{what}; {kind.hint}"
    return InputError(source, [what])


def _size(n: int) -> str:
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KB"
    return f"{n:,} bytes"


# ---- reading bytes ----------------------------------------------------------------------

_NOT_REGULAR = (
    (stat.S_ISDIR, "this is a folder, not a file"),
    (stat.S_ISFIFO, "this is a pipe (FIFO), not a regular file"),
    (stat.S_ISCHR, "this is a device, not a regular file"),
    (stat.S_ISBLK, "this is a device, not a regular file"),
    (stat.S_ISSOCK, "this is a socket, not a regular file"),
)


def special_file(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file ("this is a pipe (FIFO), not
    a regular file"), or None for a regular file. Readers and writers both refuse these."""
    if stat.S_ISREG(mode):
        return None
    for test, words in _NOT_REGULAR:
        if test(mode):
            return words
    return "this is not a regular file"


def _not_regular(mode: int, kind: Kind) -> str | None:
    if stat.S_ISREG(mode):
        return None
    for test, words in _NOT_REGULAR:
        if test(mode):
            return f"{words}; give the path of a {kind.name}"
    return f"this is not a regular file; give the path of a {kind.name}"


def resolved(path: Path | str) -> Path:
    """``path`` made absolute with every symbolic link followed. A link that leads back to
    itself, or a name too long for the system, is the player's ``InputError`` (exit 2),
    worded as a file that cannot be read is."""
    try:
        return Path(path).expanduser().resolve()
    except OSError as exc:
        raise InputError(str(path), [os_problem(exc)]) from None
    except RuntimeError:  # Python before 3.13 says a loop so
        raise InputError(str(path), [os_problem(OSError(errno.ELOOP, "loop"))]) from None


def is_file(path: Path | str) -> bool:
    """Whether a regular file is at ``path``; a name that cannot be looked up (too long, a
    loop of links) is none."""
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


def read_bytes(path: Path | str, kind: Kind) -> bytes:
    """The bytes of the regular file at ``path``, at most ``kind.limit`` of them. Anything
    else (no such file, a folder, a pipe, a device, too large) is an ``InputError``."""
    source = str(path)
    try:
        mode = os.stat(path).st_mode  # looked at before it is opened: opening can block
    except (OSError, ValueError) as exc:
        raise InputError(source, [os_problem(exc) if isinstance(exc, OSError)
                                  else "this is not a usable file name"]) from None
    refused = _not_regular(mode, kind)
    if refused:
        raise InputError(source, [refused])
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(source, [os_problem(exc)]) from None
    with os.fdopen(fd, "rb", buffering=0) as file:
        info = os.fstat(file.fileno())  # the file opened may not be the one looked at
        refused = _not_regular(info.st_mode, kind)
        if refused:
            raise InputError(source, [refused])
        if info.st_size > kind.limit:
            raise _too_large(source, kind)
        try:
            data = _read_at_most(file, kind.limit + 1)
        except OSError as exc:
            raise InputError(source, [os_problem(exc)]) from None
    if len(data) > kind.limit:
        raise _too_large(source, kind)
    return data


def _read_at_most(file: object, count: int) -> bytes:
    read = getattr(file, "read")  # noqa: B009 - any binary reader
    parts = []
    left = count
    while left > 0:
        chunk = read(min(left, 4 * MIB))
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _too_large(source: str, kind: Kind) -> InputError:
    return InputError(source, [f"this file is larger than {_size(kind.limit)}, the most a "
                               f"{kind.name} may be"])


def read_stdin(kind: Kind, source: str = "<stdin>") -> str:
    """Standard input as text, read as a file of ``kind`` is (at most its limit)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # pragma: no cover - a text-only stdin
        data = sys.stdin.read(kind.limit + 1).encode("utf-8", "surrogateescape")
    else:
        data = _read_at_most(stream, kind.limit + 1)
    if len(data) > kind.limit:
        raise _too_large(source, kind)
    return decode(data, source, kind)


# ---- text ---------------------------------------------------------------------------------

def decode(data: bytes, source: str, kind: Kind) -> str:
    """``data`` as UTF-8 text (a byte-order mark is dropped), or an ``InputError`` naming
    the line of the first byte that is not UTF-8 (or saying that it is a database)."""
    if data.startswith(SQLITE_HEADER):
        raise InputError(source, [f"this is an SQLite database file, not a {kind.name}; open "
                                  "it with --db FILE, or make a backup of it with "
                                  "'meks --db FILE db backup OUT'"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise _refuse(source, problem(f"not UTF-8 text (the byte 0x{data[exc.start]:02x}); "
                                      "save the file as UTF-8", line), kind) from None


def read_text(path: Path | str, kind: Kind) -> str:
    """The UTF-8 text of the file at ``path`` (see ``read_bytes``)."""
    return decode(read_bytes(path, kind), str(path), kind)


def control_problem(text: str, line: int | None = None, path: str = "",
                    subject: str = "the text") -> str | None:
    """The problem with ``text`` if it holds a control character other than a tab or a line
    break, worded as every file problem is; None if it is clean."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    if line is not None and "\n" in text:
        line += text.count("\n", 0, found.start())
    return problem(f"{subject} holds {describe(found.group())}; text in a file may hold "
                   "tabs and line breaks but no other control characters", line, path)


def text_lines(text: str, source: str) -> Iterator[tuple[int, str]]:
    """The lines of a plain-text file with their numbers, refusing control characters."""
    for number, line in enumerate(text.splitlines(), 1):
        wrong = control_problem(line, number)
        if wrong:
            raise InputError(source, [wrong])
        yield number, line


# ---- YAML ---------------------------------------------------------------------------------

class _Frame:
    """A list or mapping being read: where the next value in it sits."""

    __slots__ = ("index", "is_mapping", "key", "lines", "wants_key")

    def __init__(self, is_mapping: bool) -> None:
        self.is_mapping = is_mapping
        self.key: str | int = "?"
        self.index = -1
        self.wants_key = True
        self.lines: dict[str, int | None] = {}  # a mapping's keys, each with its line


def _path(frames: list[_Frame]) -> str:
    return dotted([f.key if f.is_mapping else f.index for f in frames])


def _yaml_problem(exc: yaml.YAMLError, text: str) -> str:
    """A YAML error from the parser in our words."""
    if isinstance(exc, yaml.reader.ReaderError):  # such as U+FFFE, which is no character
        line = text.encode("utf-8", "surrogatepass")[:exc.position].count(b"\n") + 1
        return problem(f"the character U+{exc.character:04X} cannot be in a YAML file", line)
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or "unreadable YAML"
        if "maximum nesting depth" in what:  # libyaml's own limit, met while reading ahead
            what = (f"lists and mappings nested more than {MAX_DEPTH} deep; no file of ours "
                    "needs that many")
        if "tag" in what:
            what = f"{what} (only plain YAML data is accepted; tags are not)"
        if mark is None:
            return what
        return problem(what, mark.line + 1, column=mark.column + 1)
    return f"not readable as YAML ({exc})"


def _check_raw(text: str, source: str, kind: Kind) -> None:
    """Control characters typed into the file itself (not escaped), which the YAML reader
    would refuse in words of its own: refused here with their line."""
    found = _RAW_CONTROL.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise InputError(source, [problem(f"the file holds {describe(found.group())}; a "
                                          f"{kind.name} may hold tabs and line breaks but "
                                          "no other control characters", line)])


def check_yaml_events(text: str, source: str, kind: Kind = YAML_FILE) -> None:
    """Walk the parser's events (the parser keeps its own stack, so this is safe however
    deep the text nests) and refuse, with its line and place, the first tag, anchor or
    alias, list or mapping nested more than ``MAX_DEPTH`` deep, whole number of more than
    ``MAX_DIGITS`` digits, or text holding a control character; and every key given twice
    in one mapping, all of them at once."""
    repeated = repeated_keys(text, source, kind)
    if repeated:
        raise InputError(source, [wrong for _, wrong in repeated])


def repeated_keys(text: str, source: str,
                  kind: Kind = YAML_FILE) -> list[tuple[int | None, str]]:
    """``check_yaml_events``, except that every key given twice in one mapping is returned
    (its line and the problem) instead of refused: for a check that goes on to say what
    else is wrong with the file, whose data keeps the last of the two."""
    frames: list[_Frame] = []
    repeated: list[tuple[int | None, str]] = []
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionEndEvent):
            frames.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        is_key = False
        if frames:
            top = frames[-1]
            if top.is_mapping:
                is_key, top.wants_key = top.wants_key, not top.wants_key
            else:
                top.index += 1
        mark = event.start_mark
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        if isinstance(event, yaml.AliasEvent) or event.anchor is not None:
            raise InputError(source, [problem(
                "YAML anchors and aliases (&name, *name) are not accepted; write each part "
                "out in full", line, _path(frames), column)])
        tag = getattr(event, "tag", None)
        if tag is not None:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise InputError(source, [problem(
                f"the tag {shown!r} is not accepted: only plain YAML data is; tags are not",
                line, _path(frames), column)])
        if isinstance(event, yaml.ScalarEvent):
            value = event.value
            if is_key:
                frames[-1].key = value
                twice = _repeated_key(frames, value, line)
                if twice is not None:
                    repeated.append((line, twice))
            where = _path(frames) if not is_key else _path(frames[:-1])
            wrong = control_problem(value, line, where,
                                    f"the key {value!r}" if is_key else "the text")
            if wrong:
                raise InputError(source, [wrong])
            if event.implicit[0] and len(value) > MAX_DIGITS and _is_int(value):
                raise InputError(source, [problem(_long_number(value), line, where)])
        elif isinstance(event, yaml.CollectionStartEvent):
            if is_key:
                frames[-1].key = "?"
            frames.append(_Frame(isinstance(event, yaml.MappingStartEvent)))
            if len(frames) > MAX_DEPTH:
                raise InputError(source, [problem(
                    f"lists and mappings nested more than {MAX_DEPTH} deep; no file of ours "
                    "needs that many", line)])
    return repeated


def _repeated_key(frames: list[_Frame], key: str, line: int | None) -> str | None:
    """The problem of a key given twice in one mapping (None if it is not): YAML readers
    keep the last one silently, so a change made to the first would go unseen. Refused,
    naming both lines."""
    top = frames[-1]
    if key not in top.lines:
        top.lines[key] = line
        return None
    first = top.lines[key]
    if first is None or line is None:
        where = ""
    elif first == line:
        where = f" (both on line {line})"
    else:
        where = f" (lines {first} and {line})"
    return problem(f"the key {key!r} is given twice in one mapping{where}; keep one of them",
                   line, _path(frames[:-1]))


def _long_number(value: str) -> str:
    """Why the whole number ``value`` (longer than ``MAX_DIGITS`` characters) is refused."""
    digits = sum(c.isalnum() for c in value)
    if digits <= MAX_DIGITS:  # long only for its underscores: 1____2 reads as 12
        return (f"a whole number written with {value.count('_'):,} underscores between "
                f"its {digits} digits; write the number with its digits alone")
    return (f"a whole number of {_digits(value)} digits; numbers here have at most "
            f"{MAX_DIGITS}")


def _is_int(plain: str) -> bool:
    """Whether YAML reads this plain (unquoted) text as a whole number."""
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, plain, (True, False))  # type: ignore[no-untyped-call]
    return tag == _INT_TAG


def _digits(value: str) -> str:
    return f"{sum(c.isalnum() for c in value):,}"


def parse_yaml(text: str, source: str, kind: Kind = YAML_FILE,
               repeated: list[tuple[int | None, str]] | None = None) -> object:
    """The plain data in YAML ``text`` (None for an empty document), checked as the module
    says; ``source`` names it in messages. With ``repeated`` (a list), keys given twice are
    added to it (see ``repeated_keys``) instead of refused."""
    _check_raw(text, source, kind)
    try:
        if repeated is None:
            check_yaml_events(text, source, kind)
        else:
            repeated += repeated_keys(text, source, kind)
        return yaml.load(text, Loader=_Loader)
    except InputError:
        raise
    except yaml.YAMLError as exc:
        raise _refuse(source, _yaml_problem(exc, text), kind) from None
    except (ValueError, RecursionError) as exc:  # pragma: no cover - checked before
        raise _refuse(source, f"not readable as YAML ({exc})", kind) from None


def read_yaml_file(path: Path | str, kind: Kind = YAML_FILE) -> object:
    """The plain data in the YAML file at ``path``; ``InputError`` (exit 2) if unreadable,
    unsafe or empty."""
    return _read_yaml(path, kind)[1]


def read_yaml_lines(path: Path | str, kind: Kind = YAML_FILE) -> tuple[object, LineIndex]:
    """``read_yaml_file``, with the lines of the file's values, to say where a problem is."""
    text, data = _read_yaml(path, kind)
    return data, LineIndex(compose(text))


def _read_yaml(path: Path | str, kind: Kind) -> tuple[str, object]:
    """The YAML file's text and the plain data in it (see ``read_yaml_file``)."""
    text = read_text(path, kind)
    data = parse_yaml(text, str(path), kind)
    if data is None:
        raise InputError(str(path), ["the file is empty"])
    return text, data


# ---- lines of a YAML file's values --------------------------------------------------------

def compose(text: str) -> yaml.Node | None:
    """YAML ``text`` (already parsed, so known to be sound) as a tree of nodes that know
    their lines."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.compose(text, Loader=loader)
    except yaml.YAMLError:  # pragma: no cover - the text was parsed already
        return None


class LineIndex:
    """Lines of the values in a composed YAML tree (``compose``), each mapping's keys
    indexed the first time they are asked for, so that locating thousands of problems stays
    quick."""

    def __init__(self, root: yaml.Node | None) -> None:
        self.root = root
        self._keys: dict[int, dict[str, tuple[yaml.Node, int]]] = {}

    def _child(self, node: yaml.MappingNode, key: str) -> tuple[yaml.Node, int] | None:
        index = self._keys.get(id(node))
        if index is None:
            index = {}
            for k, value in node.value:
                if isinstance(k, yaml.ScalarNode):
                    index.setdefault(k.value, (value, k.start_mark.line + 1))
            self._keys[id(node)] = index
        return index.get(key)

    def line_of(self, path: Sequence[str | int]) -> int | None:
        """The line (from 1) of the value at ``path``, or of the nearest enclosing value
        that exists (for a missing key, the mapping that lacks it)."""
        if self.root is None:
            return None
        node = self.root
        line = node.start_mark.line + 1
        for seg in path:
            if isinstance(node, yaml.MappingNode):
                found = self._child(node, str(seg))
                if found is None:
                    break
                node, line = found
            elif isinstance(node, yaml.SequenceNode) and isinstance(seg, int) \
                    and 0 <= seg < len(node.value):
                node = node.value[seg]
                line = node.start_mark.line + 1
            else:
                break
        return line


# ---- JSON ---------------------------------------------------------------------------------

class _LongNumber(ValueError):
    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _whole(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, source: str, kind: Kind) -> object:
    """The data in JSON ``text``, checked as YAML is (depth, long numbers, control
    characters in any text)."""
    try:  # quick: Python's own reader, the numbers' length checked after
        data = _fast_json(text)
        check_data(data, source, numbers=True)
        return data
    except json.JSONDecodeError as exc:
        raise _refuse(source, problem(json_words(exc.msg), exc.lineno, column=exc.colno),
                      kind) from None
    except RecursionError:
        raise InputError(source, [f"lists and mappings nested more than {MAX_DEPTH} deep; "
                                  "no file of ours needs that many"]) from None
    except ValueError:  # a number too long, NaN or Infinity: worded below, with its line
        pass
    try:
        data = _load_json(text)
    except _LongNumber as exc:
        at = text.find(exc.digits)
        line = text.count("\n", 0, at) + 1 if at >= 0 else None
        raise InputError(source, [problem(
            f"a whole number of {_digits(exc.digits)} digits; numbers here have at most "
            f"{MAX_DIGITS}", line)]) from None
    except json.JSONDecodeError as exc:
        raise _refuse(source, problem(json_words(exc.msg), exc.lineno, column=exc.colno),
                      kind) from None
    except RecursionError:
        raise InputError(source, [f"lists and mappings nested more than {MAX_DEPTH} deep; "
                                  "no file of ours needs that many"]) from None
    except ValueError as exc:  # NaN or Infinity
        raise _refuse(source, str(exc), kind) from None
    check_data(data, source)
    return data


def _load_json(text: str) -> object:
    return json.loads(text, parse_int=_whole, parse_constant=_no_constant)


def _fast_json(text: str) -> object:
    """JSON read without a call back for each number (several times faster on a document
    of millions of them): ``check_data(numbers=True)`` checks their length after."""
    return json.loads(text, parse_constant=_no_constant)


_TOO_LONG = 10 ** MAX_DIGITS  # the least whole number of more than MAX_DIGITS digits
_PLAIN = frozenset({int, float, bool, type(None)})


def parse_json_or_yaml(text: str, source: str, kind: Kind) -> object:
    """The data in ``text``, JSON or YAML. JSON is YAML too, but Python's JSON reader is
    many times faster on a large document, so text that reads as JSON is read so; anything
    else (and its problems) is YAML's."""
    if text.lstrip()[:1] not in ("{", "["):
        return parse_yaml(text, source, kind)
    try:
        data = _fast_json(text)
    except json.JSONDecodeError:
        return parse_yaml(text, source, kind)
    except (ValueError, RecursionError):
        return parse_json(text, source, kind)  # to word the problem
    try:
        check_data(data, source, numbers=True)
    except _LongNumber:
        return parse_json(text, source, kind)  # to word it, with its line
    return data


def check_data(data: object, source: str, numbers: bool = False) -> None:
    """Refuse data nested more than ``MAX_DEPTH`` deep or holding text (keys included) with a
    control character, naming the place. For data that did not come through
    ``parse_yaml``, which checks the same as it reads. ``numbers``: a whole number of more
    than ``MAX_DIGITS`` digits raises ``_LongNumber`` (for the JSON reader to word)."""
    if numbers and isinstance(data, int) and not -_TOO_LONG < data < _TOO_LONG:
        raise _LongNumber(str(abs(data)))
    if not isinstance(data, str | dict | list):
        return None
    stack: list[tuple[object, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            wrong = control_problem(value, path=dotted(path))
            if wrong:
                raise InputError(source, [wrong])
            continue
        if len(path) >= MAX_DEPTH:
            raise InputError(source, [f"lists and mappings nested more than {MAX_DEPTH} "
                                      "deep; no file of ours needs that many"])
        # plain numbers, booleans and nulls are looked at no further; texts and what nests
        # are, each with its place made only for them (a list of millions of numbers costs
        # one pass over it)
        if isinstance(value, list):
            kinds = set(map(type, value))
            if kinds <= _PLAIN:  # only numbers, booleans and nulls: looked at in bulk
                ints = value if kinds == {int} else [x for x in value if type(x) is int]
                if numbers and ints and (max(ints) >= _TOO_LONG or min(ints) <= -_TOO_LONG):
                    raise _LongNumber(str(max(abs(max(ints)), abs(min(ints)))))
                continue
            for i, item in enumerate(value):
                if isinstance(item, str | dict | list):
                    stack.append((item, (*path, i)))
                elif numbers and isinstance(item, int) and not -_TOO_LONG < item < _TOO_LONG:
                    raise _LongNumber(str(abs(item)))
            continue
        assert isinstance(value, dict)
        for key, item in value.items():
            if isinstance(key, str):
                wrong = control_problem(key, path=dotted(path), subject=f"the key {key!r}")
                if wrong:
                    raise InputError(source, [wrong])
            if isinstance(item, str | dict | list):
                stack.append((item, (*path, key)))
            elif numbers and isinstance(item, int) and not -_TOO_LONG < item < _TOO_LONG:
                raise _LongNumber(str(abs(item)))
    return None


def read_json_file(path: Path | str, kind: Kind) -> object:
    """The data in the JSON file at ``path`` (see ``read_bytes`` and ``parse_json``)."""
    return parse_json(read_text(path, kind), str(path), kind)
