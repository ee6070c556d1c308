"""Reads the lit RUN lines of a rule test."""
import os
import shlex


def compile_flags(path, flags, cuda_flags):
    """The flags after '--' of the file's first torchtidy RUN line, with the
    lit substitutions they use; None when it has none."""
    commands, current = [], ""
    for line in open(path):
        if "RUN:" not in line:
            continue
        current += line.split("RUN:", 1)[1].strip()
        if current.endswith("\\"):
            current = current[:-1] + " "
        else:
            commands.append(current)
            current = ""
    for cmd in commands:
        if "%torchtidy" in cmd and " -- " in cmd:
            tail = cmd.split(" -- ", 1)[1].split("|")[0]
            for key, value in (("%torch_cuda_flags", cuda_flags), ("%torch_flags", flags),
                               ("%S", os.path.dirname(path)), ("%s", path)):
                tail = tail.replace(key, value)
            return shlex.split(tail)
    return None
