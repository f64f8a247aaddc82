"""Pure riichi rules: tiles, hands, melds, rule presets, scoring, waits, furiten, game state, settlement.

No I/O here, and nothing imported from ``vision``, ``device`` or ``web``.
"""
