"""`openenv validate`: check an environment directory."""
import argparse
import sys

from openenv.validation.report import render
from openenv.validation.validator import validate


def main(argv=None):
    parser = argparse.ArgumentParser(prog="openenv validate")
    parser.add_argument("path")
    parser.add_argument("--image")
    args = parser.parse_args(argv)
    problems = validate(args.image) if args.image else []
    sys.stdout.write(render(problems) + "\n")
    return 1 if problems else 0
