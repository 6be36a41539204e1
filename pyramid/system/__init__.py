"""The appliance glue: systemd's notify protocol and what the device knows of itself."""
