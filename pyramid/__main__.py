"""`python -m pyramid` runs the console, as the `pyramid` command does."""

import sys

from pyramid.app import main

sys.exit(main())
