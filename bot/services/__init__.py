"""Every rule of the bot, once: matches, results, garnets, events, ratings, history.

Services know nothing of commands or platforms: they take plain values and return
``Response``s or raise ``Refusal``s."""
