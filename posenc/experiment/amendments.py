"""English wording amendments: the English sentence of a frozen claim, re-worded after the freeze.

A claim frozen in preregistration/<date>.json (frozen.py) keeps for good its Chinese sentence, its checks, and the
margins and words they read. Its English sentence is a translation of the frozen Chinese one, and a translation can
be mended: a non-standard term, a phrase that is not idiomatic. Such a mend is recorded here and only here, as an
entry with the frozen English word for word, the new English and why. claims.py keeps the frozen wording; the
English pages print the amended one (claims.english_template), and the results page lists every amendment with its
frozen wording beside it, so that a reader can judge that the meaning did not change.

What an amendment may not do: change the claim's meaning, its checks or its margins (a claim that failed the
replication is reworded under a new name instead: frozen.REWORDED). tests/test_preregistration.py checks that the
frozen English here is the latest freeze's, that the claim's Chinese sentence and checks are the frozen ones, and
that the new English keeps the seed counts ({seeds}, {seeds1} ...) of the frozen one. Beyond those, an amended
sentence may name the margins it paraphrases, {clearly} and {same} (stats.CLEARLY, stats.SAME), so that a threshold
it states is never typed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EnglishAmendment:
    frozen: str  # the English sentence as frozen, word for word
    en: str  # the English sentence the pages print
    reasons: tuple[str, ...]  # why, in words a reader of the results page follows


# Why (the native English review of 2026-12-05, R2, items S4 and S5)
TERMS = "the field's standard terms, learned position embedding and no positional encoding, as the glossary and the lessons write them"
CLEARLY = "“short of the clearly margin” is not idiomatic: the threshold is named, with its value"
BAND = "“inside the band of barely changing” is not idiomatic: the band is named, with its width"
UNSCALED = "“RoPE used as it is” means RoPE without any frequency scaling: unscaled RoPE"
# Why (the native English review R3, item L5-N2)
AS_IT_IS = "“using it as it is” and “leaving RoPE as it is” mean RoPE without any frequency scaling: unscaled RoPE"

# The margins an amended sentence may print ({clearly}, {same}): stats.CLEARLY and stats.SAME, in nats.
MARGIN_FIELDS = ("clearly", "same")

ENGLISH: dict[str, EnglishAmendment] = {
    "nope_beats_unigram": EnglishAmendment(
        frozen="Even with no position encoding at all, the small causal model's loss is clearly below the baseline that guesses from character frequencies alone (on {seeds}): it does use the preceding text",
        en="Even with no positional encoding at all, the small causal model's loss is clearly below the baseline that guesses from character frequencies alone (on {seeds}): it does use the preceding text",
        reasons=(TERMS,),
    ),
    "sin_worse_in_distribution": EnglishAmendment(
        frozen='Sinusoidal encoding without the √d_model factor is clearly worse than the learned position table within the training length, and clearly worse even than the model with no position encoding at all (on {seeds})',
        en='Sinusoidal encoding without the √d_model factor is clearly worse than the learned position embedding within the training length, and clearly worse even than the model with no positional encoding at all (on {seeds})',
        reasons=(TERMS,),
    ),
    "sin_scaled_ahead_of_learned_and_nope": EnglishAmendment(
        frozen='and it also beats the learned position table and the model with no position encoding (on {seeds})',
        en='and it also beats the learned position embedding and the model with no positional encoding (on {seeds})',
        reasons=(TERMS,),
    ),
    "learned_a_little_worse_than_nope": EnglishAmendment(
        frozen='Within the training length, the learned position table is a little worse than the model with no position encoding: the difference is short of the clearly margin, but its sign is resolved, with the higher loss on {seeds}',
        en='Within the training length, the learned position embedding is a little worse than the model with no positional encoding: the difference falls short of the ‘clearly’ threshold ({clearly} nats), but its sign is resolved, with the higher loss on {seeds}',
        reasons=(TERMS, CLEARLY,),
    ),
    "learned_rises_less": EnglishAmendment(
        frozen="the learned position table's loss rises too, but clearly less (on {seeds})",
        en="the learned position embedding's loss rises too, but clearly less (on {seeds})",
        reasons=(TERMS,),
    ),
    "nope_rises_slightly_past_train_len": EnglishAmendment(
        frozen='The model with no position encoding keeps almost the same loss past the training length, only slightly higher (on {seeds})',
        en='The model with no positional encoding keeps almost the same loss past the training length, only slightly higher (on {seeds})',
        reasons=(TERMS,),
    ),
    "early_positions_higher": EnglishAmendment(
        frozen='The first few positions have almost no context, and there both sinusoidal encoding with √d_model and the model with no position encoding have a higher loss than in the second half of the training length (on {seeds})',
        en='The first few positions have almost no context, and there both sinusoidal encoding with √d_model and the model with no positional encoding have a higher loss than in the second half of the training length (on {seeds})',
        reasons=(TERMS,),
    ),
    "lesson3_methods_beat_unigram": EnglishAmendment(
        frozen='The learned position table, sinusoidal encoding with √d_model and the model with no position encoding are each, on {seeds}, clearly better than the character-frequency baseline within the training length',
        en='The learned position embedding, sinusoidal encoding with √d_model and the model with no positional encoding are each, on {seeds}, clearly better than the character-frequency baseline within the training length',
        reasons=(TERMS,),
    ),
    "alibi_beats_additive_beyond": EnglishAmendment(
        frozen="Beyond the training length, ALiBi's loss is clearly lower than that of the earlier methods that add the position to the input, and clearly lower than that of the model with no position encoding (on {seeds})",
        en="Beyond the training length, ALiBi's loss is clearly lower than that of the earlier methods that add the position to the input, and clearly lower than that of the model with no positional encoding (on {seeds})",
        reasons=(TERMS,),
    ),
    "alibi_beats_nope_in_distribution": EnglishAmendment(
        frozen='Within the training length, ALiBi is clearly better than the model with no position encoding (on {seeds})',
        en='Within the training length, ALiBi is clearly better than the model with no positional encoding (on {seeds})',
        reasons=(TERMS,),
    ),
    "rope_a_little_below_alibi": EnglishAmendment(
        frozen='Within the training length, RoPE is a little lower than ALiBi: the difference is short of the clearly margin, but its sign is resolved, with RoPE lower on {seeds}',
        en='Within the training length, RoPE is a little lower than ALiBi: the difference falls short of the ‘clearly’ threshold ({clearly} nats), but its sign is resolved, with RoPE lower on {seeds}',
        reasons=(CLEARLY,),
    ),
    "rope_and_alibi_beat_additive_in_distribution": EnglishAmendment(
        frozen='both are clearly better than the learned position table and the model with no position encoding, and better than sinusoidal encoding with √d_model (each on {seeds})',
        en='both are clearly better than the learned position embedding and the model with no positional encoding, and better than sinusoidal encoding with √d_model (each on {seeds})',
        reasons=(TERMS,),
    ),
    "rope_rises": EnglishAmendment(
        frozen='Past the training length, the loss of RoPE used as it is rises clearly (on {seeds})',
        en='Past the training length, the loss of unscaled RoPE rises clearly (on {seeds})',
        reasons=(UNSCALED,),
    ),
    "nope_beats_rope_beyond": EnglishAmendment(
        frozen='Beyond the training length, RoPE used as it is does worse than the model with no position encoding at all (on {seeds})',
        en='Beyond the training length, unscaled RoPE does worse than the model with no positional encoding at all (on {seeds})',
        reasons=(TERMS, UNSCALED,),
    ),
    "alibi_beats_rope_beyond": EnglishAmendment(
        frozen="Beyond the training length, ALiBi's loss is clearly lower than that of RoPE used as it is (on {seeds})",
        en="Beyond the training length, ALiBi's loss is clearly lower than that of unscaled RoPE (on {seeds})",
        reasons=(UNSCALED,),
    ),
    "ntk_yarn_help_rope_beyond": EnglishAmendment(
        frozen="With no fine-tuning at all, scaling RoPE with NTK-aware or YaRN at inference time gives a lower loss beyond the training length than using it as it is (on {seeds})",
        en="With no fine-tuning at all, scaling RoPE with NTK-aware or YaRN at inference time gives a lower loss beyond the training length than unscaled RoPE (on {seeds})",
        reasons=(AS_IT_IS,),
    ),
    "pi_worse_beyond_too": EnglishAmendment(
        frozen="Beyond the training length, PI is also worse than leaving RoPE as it is (on {seeds})",
        en="Beyond the training length, PI is also worse than unscaled RoPE (on {seeds})",
        reasons=(AS_IT_IS,),
    ),
    "yarn_rise_within_same_band": EnglishAmendment(
        frozen='Scaled with YaRN, the loss stays almost the same past the training length: the change is inside the band of barely changing (up on {seeds})',
        en='Scaled with YaRN, the loss stays almost the same past the training length: the change lies within the ‘barely changing’ band of ±{same} nats (up on {seeds})',
        reasons=(BAND,),
    ),
    "yarn_rope_beats_nope_beyond": EnglishAmendment(
        frozen="With YaRN scaling at inference time, RoPE's loss beyond the training length is again lower than that of the model with no position encoding (on {seeds})",
        en="With YaRN scaling at inference time, RoPE's loss beyond the training length is again lower than that of the model with no positional encoding (on {seeds})",
        reasons=(TERMS,),
    ),
    "ext_ntk_slightly_below_yarn_within_pretraining": EnglishAmendment(
        frozen='NTK-aware and YaRN both return to the pre-training level within these few steps: NTK-aware even slightly below it (on {seeds1}), YaRN inside the band of barely changing around it (above it on {seeds2})',
        en='NTK-aware and YaRN both return to the pre-training level within these few steps: NTK-aware even slightly below it (on {seeds1}), YaRN within the ‘barely changing’ band of ±{same} nats around it (above it on {seeds2})',
        reasons=(BAND,),
    ),
    "partial_within_same_band_of_rope": EnglishAmendment(
        frozen="Partial RoPE, which rotates only a quarter of each head's dimensions, comes very close to full RoPE within the training length: the difference is inside the band of barely changing (partial RoPE is higher on {seeds})",
        en="Partial RoPE, which rotates only a quarter of each head's dimensions, comes very close to full RoPE within the training length: the difference lies within the ‘barely changing’ band of ±{same} nats (partial RoPE is higher on {seeds})",
        reasons=(BAND,),
    ),
    "partial_beats_nope": EnglishAmendment(
        frozen='yet it is clearly better than NoPE, with no position encoding at all (on {seeds})',
        en='yet it is clearly better than NoPE, with no positional encoding at all (on {seeds})',
        reasons=(TERMS,),
    ),
    "top_three_close_rope_a_little_lowest": EnglishAmendment(
        frozen='Within the training length, the three are close: RoPE is a little lower than ALiBi, and the sign is resolved (on {seeds1}); partial RoPE is inside the band of barely changing around RoPE (higher on {seeds2}); partial RoPE and ALiBi cannot be told apart (partial RoPE lower on {seeds3})',
        en='Within the training length, the three are close: RoPE is a little lower than ALiBi, and the sign is resolved (on {seeds1}); partial RoPE lies within the ‘barely changing’ band of ±{same} nats around RoPE (higher on {seeds2}); partial RoPE and ALiBi cannot be told apart (partial RoPE lower on {seeds3})',
        reasons=(BAND,),
    ),
    "top_three_beat_the_rest": EnglishAmendment(
        frozen='all three are clearly better than NoPE and the learned position table, and better than sinusoidal encoding with √d_model (each on {seeds})',
        en='all three are clearly better than NoPE and the learned position embedding, and better than sinusoidal encoding with √d_model (each on {seeds})',
        reasons=(TERMS,),
    ),
}
