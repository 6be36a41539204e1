"""Tables beyond the home: the same tables and protocol carried by an MQTT table server (docs/network.md)."""
