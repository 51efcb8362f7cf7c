"""`openenv validate`: check an environment directory."""
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="openenv validate")
    parser.add_argument("path")
    args = parser.parse_args(argv)
    return 0
