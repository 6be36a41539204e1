"""The opt-in appliance check in a virtual machine (tests/test_vm_appliance.py)."""
