"""Pure riichi rules: tiles, hands, melds, rule presets, scoring, waits, furiten, game state, settlement.

No I/O here, and nothing imported from ``vision``, ``device`` or ``web``. ``engine.conformance`` is the
lab beside it (Tenhou logs read and replayed, self-play); nothing in the runtime imports it.
"""
