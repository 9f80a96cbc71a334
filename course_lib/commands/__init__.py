"""Sub-commands of the ``course`` command line (one module each, see :mod:`course_lib.cli`)."""
