"""A daily deal's figures as a player reads them: the honest chance as a sentence, the face-up grade as advice.

Written once, here: ``kcsolve daily`` prints these sentences and the daily
page shows them as text, so the terminal and the page never disagree. The
headline comes first; what each figure is and how it was found, with the deal
number, follows under "About this deal".
"""

from __future__ import annotations

from kcsolve.patience.daily.calendar import LOOKAHEAD_IS, DailyDeal
from kcsolve.patience.players.honest import DIFFICULTY_IS, MEANING, Difficulty, in_words
from kcsolve.patience.players.lookahead import plan_words

# The least chance each sentence speaks of, judged on the figure as shown (a whole percentage).
MOST = 0.6
HALF = 0.4
SOME = 0.1
FEW = 0.01
TIMES = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def chance_words(difficulty: Difficulty) -> str:
    """The honest chance as a player reads it, with its figure: 'Most careful players win this one: about 60%'."""
    shown = round(difficulty.chance, 2)  # the bands follow the figure shown, so 59.6% reads as 60%, not 'half'
    figure = in_words(difficulty.chance)
    if shown >= MOST:
        return f"Most careful players win this one: about {figure}"
    if shown >= HALF:
        return f"About half of careful players win this one: {figure}"
    if shown >= SOME:
        return f"A careful player wins this about one time in {TIMES[round(1 / shown)]}: {figure}"
    if shown >= FEW:
        return f"Few careful players win this one: {figure}"
    if difficulty.chance > 0:
        return f"Very few careful players win this one: {figure}"
    games = f"{difficulty.playouts} game{'s' * (difficulty.playouts != 1)}"
    return f"No careful player's game was seen to win this one: 0 wins in {games}"


def face_up_words(k: int | None) -> str:
    """The face-up grade as advice, a line of its own: 'Face up: plan 4 cards ahead'."""
    words = plan_words(k)
    return words[:1].upper() + words[1:]


def about_sentences(found: DailyDeal) -> list[str]:
    """What the headline's figures are and how they were found, then the deal's number: the details, in order."""
    label = found.difficulty.label()
    return [
        label[:1].upper() + label[1:] + ".",
        f"How it is measured: {DIFFICULTY_IS.removeprefix(MEANING + ': ')}.",  # the sentence before says what it is
        f"Face up: {LOOKAHEAD_IS}.",
        f"Deal {found.seed}, rules {found.rules}.",
    ]
