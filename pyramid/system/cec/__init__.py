"""HDMI-CEC: the console as a Playback device on the TV's bus (issue 49).

``messages`` the messages and the values the kernel's ``linux/cec.h`` names;
``playback`` what a Playback device answers and does, as rules without the
adapter; ``kernel`` the adapter's structures and ioctl numbers (``/dev/cecN``).
"""
