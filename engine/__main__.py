"""`python -m engine` runs the same CLI as `rulecraft`."""

from engine.cli import main

if __name__ == "__main__":
    main()
