#!/bin/sh
# seedy.sh: output that depends on the schedule (tests/explore, the
# --compare-output and --check cases). Every UE prints a line that depends
# on the seed's parity (RCK_SIM_SCHEDULE, which rck run gives the cores),
# a line that differs run after run (its process id), and a fixed one.
echo "result $((RCK_SIM_SCHEDULE % 2))"
echo "wall time $$"
echo "done"
