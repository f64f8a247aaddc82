"""The engine's lab: checks against real games and random play; the runtime never imports it.

Modules: ``tenhou`` (Tenhou's formats decoded: 136-ids, meld codes, yaku ids; a recorded win rescored
and compared: ``check_win``), ``tenhou_games`` (Tenhou game logs read into events and replayed hand by
hand: ``parse_file``, ``replay``), ``selfplay`` (random legal games the engine plays against itself).
``jantaku-lab conformance wins`` and ``jantaku-lab conformance games`` run the first two on the logs in
``../shared/data/tenhou``.
"""
