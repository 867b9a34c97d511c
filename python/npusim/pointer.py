"""JSON pointers (RFC 6901) into a config or workload, set the way `npusim sweep` sets them.

The sweep writes a value at a pointer into the resolved config, creating missing object keys
(nlohmann's operator[]), and a "*" step means every element of a list; the API does the same
so a chip set from Python is the chip a sweep point would build.
"""


def steps(pointer):
    """The unescaped reference tokens of a pointer: "/a~1b/c" -> ["a/b", "c"]."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"JSON pointer '{pointer}' must start with '/'")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _child(doc, token, create):
    """The value under one token; missing object keys become {} when create is set."""
    if isinstance(doc, list):
        return doc[int(token)]
    if token not in doc and create:
        doc[token] = {}
    return doc[token]


def _set_one(doc, tokens, value):
    if not tokens:
        raise ValueError("the empty pointer names the whole document; give a key")
    for token in tokens[:-1]:
        doc = _child(doc, token, create=True)
    last = tokens[-1]
    if isinstance(doc, list):
        if last == "-":
            doc.append(value)
        else:
            doc[int(last)] = value
    else:
        doc[last] = value


def set_at(doc, pointer, value):
    """Writes value at pointer in doc (in place); "*" steps through every list element."""
    tokens = steps(pointer)
    if "*" not in tokens:
        _set_one(doc, tokens, value)
        return
    star = tokens.index("*")
    target = doc
    for token in tokens[:star]:
        target = _child(target, token, create=False)
    if not isinstance(target, list):
        raise ValueError(f"'*' steps through a list, and {pointer} does not name one")
    rest = "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens[star + 1:])
    for element in target:
        set_at(element, rest, value)


def get_at(doc, pointer):
    """The value at pointer (KeyError or IndexError when it is missing)."""
    for token in steps(pointer):
        doc = _child(doc, token, create=False)
    return doc
