"""Errors the npusim package raises."""


class InputError(ValueError):
    """Bad input, reported exactly as the CLI reports it (exit status 2).

    The CLI prints one line, ``error: <file>: <place>: <reason>``; the parts are kept apart
    so a notebook can point at the file or the JSON place without parsing the message.
    """

    def __init__(self, message, file="", place="", reason=""):
        super().__init__(message)
        self.file = file
        self.place = place
        self.reason = reason

    @classmethod
    def from_cli_line(cls, line):
        """Builds the error from the CLI's one-line message (without a trailing newline)."""
        text = line[len("error: "):] if line.startswith("error: ") else line
        parts = text.split(": ", 2)
        if len(parts) == 2:  # "file: reason", a message with no place
            parts.insert(1, "")
        while len(parts) < 3:
            parts.insert(0, "")
        return cls(text, *parts)

    def with_file(self, file):
        """The same error naming another file: a temporary copy's path becomes the
        file the user gave (the chip's config, the workload)."""
        return InputError(": ".join(x for x in (file, self.place, self.reason) if x),
                          file, self.place, self.reason)

    def renamed(self, files):
        """This error with the scratch files' names ({scratch path: name}) replaced by what
        the user gave, in the file and in the reason (a bound array's .npy)."""
        file, reason = files.get(self.file, self.file), self.reason
        for scratch, name in files.items():
            reason = reason.replace(scratch, name)
        return InputError(": ".join(x for x in (file, self.place, reason) if x), file, self.place, reason)
