"""The implicit-bias study (docs/implicit-bias-study.md): word-association tests, the appointment-allocation task and
the explicit questions, in English and Spanish, on any chat backend.

Modules, one job each: `stimuli` (reading the seed files), `personas` (the seeded persona and pair generator),
`prompts` (prompt sets: the shipped one and user files), `design` (which requests a run makes), `parsing`
(tolerant answer parsers), `runs` (resumable, cached runs into the warehouse), `simulated` (a simulated
respondent with planted bias), `imports` (results produced elsewhere) and `cli` (the commands).
"""
