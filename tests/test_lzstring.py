"""tak.lzstring must agree with the JavaScript lz-string that ptn.ninja decodes links with."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tak import PTNError
from tak.lzstring import (
    MAX_DECOMPRESSED_LENGTH,
    compress_to_encoded_uri_component,
    decompress_from_encoded_uri_component,
)

PTN_6X6 = (
    '[Site "PlayTak.com"]\n'
    '[Event "Online Play"]\n'
    '[Date "2024.03.17"]\n'
    '[Time "19:42:05"]\n'
    '[Player1 "alion02"]\n'
    '[Player2 "nitzel"]\n'
    '[Clock "10:0 +20"]\n'
    '[Result "R-0"]\n'
    '[Size "6"]\n'
    '[Komi "2"]\n'
    '[Flats "30"]\n'
    '[Caps "1"]\n'
    "\n"
    "1. a6 f1\n"
    "2. d3 c4\n"
    "3. d4 Cc3\n"
    "4. d5 c5\n"
    "5. c2 b3\n"
    "6. Cd2 b4\n"
    "7. e3 b5\n"
    "8. b2 a4\n"
    "9. 2d2<11 c6\n"
    "10. Sb6 3c3>12 {tinue?}\n"
    "11. e4 a3'\n"
    "12. d6 2b4+11\n"
    "13. e5 2c5-\n"
    "14. e2 Sc2\n"
    "15. e1 R-0\n"
)

PTN_5X5_UNICODE = (
    '[Player1 "Zoë"]\n'
    '[Player2 "名人"]\n'
    '[Size "5"]\n'
    '[Result "0-F"]\n'
    "\n"
    "1. a1 e5\n"
    "2. Cc3 Cc2 {🐢 slow and steady}\n"
    "3. b3 d2\n"
    "4. Sb2 c2+\n"
    "5. 2c3<11 0-F\n"
)

PTN_TAGS_ONLY_CRLF = '[Player1 "x"]\r\n[Player2 "y"]\r\n[Size "3"]\r\n\r\n'

# Reference vectors: every expected value below was produced by lz-string 1.5.0 running
# under Node.js 20 (LZString.compressToEncodedURIComponent(input)), pasted in as literals
# so that CI needs no Node. The "__proto__" rows pin down a JS quirk: the dictionary there
# is a plain object, which silently drops that one key, and the last of them tells apart a
# port that keeps it.
COMPRESS_VECTORS: list[tuple[str, str]] = [
    (
        "",
        "Q",
    ),
    (
        "a",
        "IZA",
    ),
    (
        "1",
        "IxA",
    ),
    (
        " ",
        "ARA",
    ),
    (
        "\n",
        "FBA",
    ),
    (
        "aaaaaaaaaa",
        "IY1o",
    ),
    (
        "ab" * 50,
        "IYI17SOrZ+6IcpqVA",
    ),
    (
        "Zoë",
        "Foew10A",
    ),
    (
        "名人",
        "rAqi65I",
    ),
    (
        "🐢",
        "rwbiIdo",
    ),
    (
        "🐢🐢🐢🐢",
        "rwbiId3kg",
    ),
    (
        "Zoë vs 名人 🐢",
        "Foew1wBAbgzhiwKoLrkKF4NwRDtA",
    ),
    (
        "\x00\x7f\x80\xff\u0100\uffff",
        "AAfwAQ-4AICP--Q",
    ),
    (
        "\ud83d",
        "rwbQ",
    ),
    (
        "x\udc22y",
        "B6Ih2J5A",
    ),
    (
        "__proto__",
        "PrAOCcHsBdJI",
    ),
    (
        "__proto____proto____proto__",
        "PrAOCcHsBdJEIzvRsRA",
    ),
    (
        '[Player1 "__proto__"] __proto__ __proto__ __proto__',
        "NoBQNghgngpgTgRgAQCID6aAOcD2AXHDFAXSQ230LTK1wIxovrSA",
    ),
    (
        "".join("__proto__"[:k] for k in range(1, 10)) * 2,
        "PokB3AnKHtYFwXYZI3slaOlxLsCSxxwQA",
    ),
    (
        PTN_6X6,
        (
            "NoZQlgLgpgBARABQDYEMCeAVFBrAdAYwHsBbOAXQChgBRANygDsJ4B5BpMB2ZdcqgERTR4AJgAMIgCy4xA"
            "ZlwBGAOx9gGMMVhwFATgBckkXrEBWVTzRQATgvgoOhBhPOpLVkfAaQAXlCSqAYSRCfGx4BTFjGABqcVUAJ"
            "SgAZwBXJGY4eIBaMVVwX3gANlUAaRIwUVUAMVQIJPhZXMpgAJQAB3rtPgoFXBgUQpgAMwUKET6AE1kYfEk"
            "KeRgJyRgA-FkKaUWTGZMKEz78DwAjdcK+gInjuaU+qGmj3YAOPqOPFDmdPpFLgB4FW3whR6Yj6ICOg1kaw"
            "AfAoPABvCCcFJQAD8AF8er0YFBlihZAByHrjRaDERHSTRf49BZQbYifAmLI9TZQDwgQ49fbY2zZMQUIA"
        ),
    ),
    (
        PTN_5X5_UNICODE,
        (
            "NoBQNghgngpgTgRgAQCIBaB7A1ygugKFEljgCZVBYFUC65PQgZQEsAvGVAVluACUYBnAVzAAXVAAYAtADF"
            "a+BADokEZDDb5SCgMIBjAMxJt5AN6BeDcBEO0l5gMAd0UA7ACYWhMCA6gBffDoUAjPQ6k+AAsCnS+5FqkA"
            "NT4bAqkugA8CMgSkvhAA"
        ),
    ),
    (
        PTN_TAGS_ONLY_CRLF,
        "NoBQNghgngpgTgRgAQCIAeKC6BYAUKSWOAJlSiz2AGUBLALxlQGYLc8g",
    ),
    (
        PTN_6X6 * 40,
        (
            "NoZQlgLgpgBARABQDYEMCeAVFBrAdAYwHsBbOAXQChgBRANygDsJ4B5BpMB2ZdcqgERTR4AJgAMIgCy4xA"
            "ZlwBGAOx9gGMMVhwFATgBckkXrEBWVTzRQATgvgoOhBhPOpLVkfAaQAXlCSqAYSRCfGx4BTFjGABqcVUAJ"
            "SgAZwBXJGY4eIBaMVVwX3gANlUAaRIwUVUAMVQIJPhZXMpgAJQAB3rtPgoFXBgUQpgAMwUKET6AE1kYfEk"
            "KeRgJyRgA-FkKaUWTGZMKEz78DwAjdcK+gInjuaU+qGmj3YAOPqOPFDmdPpFLgB4FW3whR6Yj6ICOg1kaw"
            "AfAoPABvCCcFJQAD8AF8er0YFBlihZAByHrjRaDERHSTRf49BZQbYifAmLI9TZQDwgQ49fbY2zZMRUcDCR"
            "CuLB4IikZp0RgZNgcLgwCyqQSC8RSGTyZSqdSacL6QzGMzNCzWWxwexgRzOQ2uaweOBeCC+fzNIIhMLaSJ"
            "iGJxZqJVLpeC8vJgApwYrNMrECpwETVWqdRqBdqdBTdLEDYajYlTGZzBZLFZrDaTbYMvYHY6nc6XGDkig3"
            "bH3J4vN4fL6-f4zIERUHgmCQ2Qw+GIhjI9GY264glEyak8mU0YKGl0hlMhQstkchRcqA8nL8yBaCwiggkV"
            "SSpisdicbiuRVCLQq6RyRQqZparS6AxGUwudDGuwOE4MZWn+7ieD4fiBMEoThB6XpNFQvppBkgbNPkWhhl"
            "QEZRsBVA1EI8YIS0SbhKmfTpiMYyTNMszzJMyyrOsmwTCWuxcocNaVis1a1vWdw1k2NYthQnwwN8Ih-ACX"
            "YgjAYIQtCsIwAiSKohi-wTv0U6wjOYlzlSi63MujLMrcG4iJyty7nyoAHvAR44Ce4pUOe0pXnKCrNEqD4S"
            "E+6qvlQ746l++q-m4JpmhauHAEaYF2hBTpUC6MHulEsREUh-qZDkQYhphwDYZUzT4XUDREa0HSkZQPTkYM"
            "lFZjRub0QWTHFjsZYzBWFBnNxVx1rcjYUM8Qn9K2YntlJwI9vJA6KcpI6qeO2KToS2kkrpFL6UuYkriZ2J"
            "mRZ3IwLy+6CvZoqnhK9AXnAMrXvKt6efeog+WqL6ahoH66t+BpUDF4WAZav3WrF9qOlBrqwal3qIckyEBt"
            "laHBhhpTlIVeFxqViYVV0VVprVmbUTmdGLAxhbMax7UcScXVVr1fEDUNrwjSJbYSR2gKTbJvb9oOSnDqOa"
            "lYjimkrVms4bQuW30sZa6mbJm7blZJ2HsKDlimeV2ubKN68I9yovc+Gpvh9QV6j+IFhQB5pAaFNrgQ6kHO"
            "tBboRFD6Ww5lqH7rlKORmjwDFYRWPJmR-T41RiwNcT+aMUWWxtexnXdRcdP9QJg3NszoniZJnac3JfYKUO"
            "KljupS0i9Oa1khL1KGdtMvrvL5lbpZR17jZp2q+dTk0Jrl7a-dusCE90YG3573atoX0hRb-6mgDUUxbaoO"
            "O4lzuQ56aUJB7KEI97yPhqj0axgRmPOiROMUNVYcZhH2a0XmpMtfHpaJ5xNM9TW1xpw8GfDe8LMxpswmt2"
            "Lm01eZzQFotYWeJRY6WrvOWu2IjKrkbuyZuis27WQFCrdAx51aXSlP3O6Hlh761VIbfyagTZT2CubIGoF-"
            "rW0BtFYGy94rg2Sq7Te0NgAZV3kRdCRRfY4RPiVOACZz7YxTLjGqt96pE0fs1OOLEE7lnfsnHi38Gzp0Zs"
            "JbO4086gILjzWa-MFplxgVpMW61EEGWQfXVBct0EHR3Fg5Wdku6OQ1kQm6bkdZoDvOQ3yb1jaT0-GbH6rD"
            "GFW0irbEGHCnYQxSjw92foBE5QPlhI+UVA5n0ShfGRV88byMJg-JqsdyZqI6ho2mX8+o6N-norOrNc4c2M"
            "dzIufMS6Cw0rAyuExxZ2KljtWWe0m6uKVh3XBmA1YXWcn3PxA9SHAC8s9Ch48wmfToVEv6sSbazwSQ7BKL"
            "R14pPgtvdJ8NBFI2EYfP2x8ioYwkWVQpocKIE0jooipZNWqv3UdTTRqdGmCSZgAgxwCjEyRMV0yBFihbLQ"
            "GUMzaddpZOPGS4luh1jrTM8XguZPcXLEPcg9Mh3kNmhICjQiJ314lMLiYc9hxzOEuzglvH0O9rmZLudkh5"
            "uTnmSIKdI954cFHlJJsoqp-yamArqbxH+oL9GtPZtJKahcZrF3mqXBFFdVqDNsSihxaLdqsgmVitxOKcF4"
            "tmd3Hx11bokqHqskej5XpGypeE6e9DomW3nswxebD7ZgySVwtlvD+FcsRj7e5oinmnxecHSqxS5F1TKY1C"
            "VlS-lsQBVxFO9T6a6MzuC5VIDoWdI1d0rVvTy79L1ciyWqLRloIVq3S1tkhT4ttYQ+1-jB6BL1uSkJ7rqG"
            "ep2XS-ZLCl5BtXqc5J3CLkcquVlG50beWxvRvGwVxFhWyJvqmr54qY6-JftmmVuatENP4k0oto0c4qvzuW"
            "iB5jtV9OsfAvSDajVNucS27F7crUdptd47tWsSGkudcEt1VDAq0MieOv1DKGFuCZcGtec6w1pLhsu7loYR"
            "H+zyQmqRIdd0fLvlHJRmaT2UyTnK7RV7FUtKAW01VYD1VPp6dAxFdaDWftpI4k1+1zVTIA2dYDCzfEOoCU"
            "EwdUGJ7bLg4c+lBykN2zisykNrK3aXKw17Gyq78o5LEUHIjSbr6kbFemo9z9VHSqpue4F9G-5gtvYY9pZb"
            "wFmI45YrjNiEGGr48asZprMWYLbZ3TtYne4Sd7SstZo8KXDpgzSmeKmbAToDaBFDM6kqadSdpz2e89NZIM"
            "3yoz+Tt3EeTXuz599LNPxURTN+srP7ypBU5pVTH70dI85qqB3ndW+Y-UggL36MW-otf+9tomCHiZ7cs8Dc"
            "XXWULk6bWlin0vxKyycnLG8F0wyXbpoRuGY34YFa8ndVXzNpujvVqVp67Mfzza1xzzTi2ddLWq0xvX4Wvr"
            "gVXIb9iRsNx-Rg1tk3wtAZm1FubYGnWLbHpSkd8m1upaU5OwNanUOztDVpxdOnCtHbygVR5G7xFbvKpVsz"
            "orrsUePTZ+7NGWt0YZjewBd6Pusa+5WvrOra2DZroDlBAmzWhfBzM-B8zoegcdf2sl6yh3QepV63ZwM0cZ"
            "eQ9O7bZz53sv2-jldxXif8s3edynJT921Zu5KrN1HalM8vSz-+LnIVuc+7C591arF-f1X53jQuguCdF9gq"
            "bXiodEqWbD2XEGZPLa2atlLPq54RWU4no5WOdvnN13wzl2Go2G8M3GsnpvTPm5q+Rn51nGs5sexegt16nd"
            "s9cyxmFFa4UvprW+-7AuRnA7G6Dv9weIcS8JYsyTfbpPy9k3H2DKPU9q825rllu2s8Rtz-vHlJX10BzO4m"
            "y+VPSkHrq9bqjTX7P5oVe1xj7OoVu9bx7zjA333d8bb34L43hMh4i2H0fMWFsuoR4lkrmOutghinlOpjtl"
            "trhhvlhknnhvkbmVoRkKmbimmXt8hmnTlXmejXg5o7s5o3i7s3o+p5lWg-nzk-sMi-uim-v3hNoPuLgSna"
            "tLlJgOpPrHh6sjgnnsqAejplovhpsvuGjnodrcsdmuqdibrvkUvvhbuXhgZXtUg9kCufm1q9s7sxg+j1tz"
            "j9h3t7vWsNv7s2rQR-kPowSBsSiwXLvFgritjPlwarhtoyvwWhjjnlnjgVgbvAQXqTsZsgSXqgWRugVZg1"
            "ooYzk9szoWg3hChod1mxiQTzr9kijxgYfxgHiLmDvQdasPkwRYePqwdYVPhwfHt6twcnrwRrhAVruhrjnr"
            "h4ThkTt4dvpISZnvqXoEYerdjbqfjgSoS9qztEV1u5nEd9u3l7kkb7ikYFkYZMu4rioBtkeYRHjLhPgUew"
            "UjsUSrjEjwerqpivFUa4XttngdgTqIQ0aVoXr4RVv4dVu0UfpRvTrbs1uEQ7pEfgQMRzi3uxqQf1uQV3pQ"
            "V+q-oHhkR4vMWYbNswXkVYUtpskUXYSUQ4dsQvpUUvpnkIccZ4WIZvhIUXlISKgfpbrTgobZmEbXhfmoQQ"
            "TEUMVzm3p7j5hQf5oYSDjMWFgwV2uCbkbFv-glorqOgpqjo4alltiiTrmifrvUXhiTk0TiS0dIW0RZlbvc"
            "VgUobRi8fXm8SWjfpzu7l5rzp3j7gDj3tQUCQPiCdNpLuHmPpyZBmsUlsrvBmUTsWnpAdUW4bUbAevpiQg"
            "RceVhTtcVdofgqZgaEXbs8XXgxm9tfq7lqXfjqYkdxhMYLqkdMUJrMSJqHuaT-vNnDlyTYdPslvCVsQ6Ui"
            "XscKdAe4e6UVl4ecT4T6W8iRtTgGYSSEcSSGaSaof0RqVGZ8fEToWMfGQaVQcLiFsCXMWaSPtFlmVHvDty"
            "bYfmZsb6kWU4ciQIaiZhnUXAZ6Y0QRuTnWZdg2QSRXs2Qzq2bga8R1pGUQVoTSWQXqfoYmVMUySmSyVkWC"
            "VLhyX-taTCesXCfOUngvMWYki4blocaviIfpl6TWUgVca0QEfKU2Xdo8Wfs9ngeeU3pocMdoaMXSX8QyUm"
            "Y+UHqaemeOTDssfkdCYjracAfyYiUuSWSuSKWuRWYThKcbtKX4TBTcXBYeQhd0cochWeVfmhbEdSffj8be"
            "ckfeaNjQcyWLi+WyW+UsZYdHmwV+ZRXyXPgKankKfRWWW6ZGh6WcVvtucXhxf6QefIUeYhT0fxWqahYQeh"
            "SJbGboeMQOQCUaekSaaOURTkYpZCcpasapUAepaUf+bRYBdjsBSvsISceBVuTvjKXibIUEZ0SftXnxREbZ"
            "YJfZcJdqd8bqXoRJYaUOe-qmZ-pDhmROZHiseRYAbybPiFf6gBepkBYIYxfpZWZudWVKZcb6aZfuXIcETx"
            "WlSqWGZfhGUJVSblQkc5f2c-m5cVcYaVaYfJRab-tmZ+RRUFfVQiYuYKc4RFa1TAe1cxSdpKcZbifWfiQN"
            "SlQ8bxSNWSR2e9pqd2SMbSY-jhX7nhX3jJZkaCStZmVVWRQATyZwQWQuaFXtcuS1auUdWvh1YZdiT1buTI"
            "WgR0cfrdcNfbqNeSe8c9cQa9TeQVQmUVWkcOZ5WmV-hVSRUpdObmbCXOfaRDVpftRngxbDWBfnl1edQlZd"
            "UlWjYqcGU8W2X0VEZ2ZeRhdeWJUTa5UDu5WTXQYRZTcRRCVaTHoFXVfYYWUzeAXRdDWzeWcdacSxYgTuRd"
            "ijbcYGUSceULaeZleNdlZNTGXlXGfzv8bLQtT9RQEAA"
        ),
    ),
    (
        "a1 b2 c3 d4 e5 f6\n" * 1200,
        (
            "IYRgBARgTGDGDMYAmAWMBTArGAZgNgChRIYFk0tdDjo5FUNt8jxayHLmbT6KnrWPcoyosSdYZwHj2fUdwk"
            "d+YtrxFdBiuRplqpKoUvmbZ66asnKFp-db1WT947svOLRne+3nD3g1rN-GwcXDx8A20dXT19Au2jw4LdYy"
            "NC-eLCgpxiIkK84qMyM9MKStILy1PyqlLza5NyGpJzmxOy2hKzO4orqusaW9q6i0t76we7RmoGOkcr+1uG"
            "yvqahnunF9YW1qe3J+dX9lYm549nl8fOxmaXrzd3D08vbjZ2Dk4ubrcfP+-er15HZ7fD53N5nF57J5fB6g"
            "wHQv4QkEAqG-cHA2Eon5goEw-6Q7HwtG4xEY-HIglw1E4hHovFIzGUrFUwnUok04m0kl00n0skM8mMinCo"
            "WiwXigWS-nSvmy3nynmK7nKrmqznqjma9natm61n6lmG5nGpmmkUSmUKlUanUGk3mqVypVqrV6o1msWOq0"
            "u23uh2W502t32z0B62uu0ei1O8O+kPR71ByP+mM+4NRr2BiN+0OppM5hNZuMZsNp5O5xPZ+OZ2PplOV4v1"
            "ot1ivN8uF2vtmtlgvd-PV0v9kt5qvDhstjs9gcjxutzu9wejpvz6fjruL2eTofLqdjtsLmcTvtLue7nfb0"
            "8Xrcn6+b493jdHx-rw8vtcH9+r-dfld73-nm97yfV8P2-P8z0vQDn1A-9IIfECfwg29gM-cCryAt8wIA+D"
            "UOwlCsLg-DYOQzDiIwmCkPIxD0Og6ioIQtD6NwwjSMo2jGJwgiSIomiGLw1jeOY7i6M4sj2P4nimK4qiOK"
            "Iti+JYyTRPkoSZIkkS5ME6TxMUjSBKksSFOE2T9OUrTDNUnTjPUkylM0gyVO0oy1N02y9Ls0z7LMhzzMci"
            "ynMs5yrJc6zXJs8Kwsi0LopC2LgvioLEsC5KAtS-z0r8zLfOynzcu8-KvMKzzio80r3PKtzKoimKEpSjKc"
            "oKkqKuquKkrSrK8qKsqqqi1q6o6xrupa2r2oarrmt6kb6s6pqepqtrpsGib5v6sbZuGhaBvGua+tGmahsm"
            "za1oOla9qWnapq29bDtW-blt2xbto227zues6npu97rtOx7voeq6Tv+477su4GLqOu7wZej6foBkGIdez7"
            "fsB0HIbe5H4ehv7UcR2GwfRuGoa+lGEZhoG0aRwmCfxymabxin6dx8mmZxsnWex0mOaxknucx4m+YxonBe"
            "phnmbZzmef5oWqdp0X2cl4XZZZiWBZlxnxd56W6bFrmpZF5XNf1jW9aV43FfV3XzZ1hW1et1Xtfl+25ZVr"
            "XncN03ZqAA"
        ),
    ),
    (
        "🐢 名人 Zoë\n" * 2000,
        (
            "rwbiIdgEiwKoXXJgWg9ga4FCkjBK3Tk14dN91csCM9sKySirTjDLyH66X3bmuanfrGAttz6DWHEUIn9xPM"
            "Z1HCZCqXKXzJsxdI3LNKrau1qd6s6Ysmrxm0buGHBp-pd63uj+ev3n7r7cdXT0sA32DvQL8QnyD-GKiIsL"
            "jI8NDY6JTkpIzsxPS8hLTC+NSSrPyi0sycirKa4uqCqtzK8oaWuqa25trG1vqe9t6Ovs7+roHuqcmZibnx"
            "hbGl0ZWRteGNoa3Bnen55fXtvcXVzd3Zk8Pz-dOji4Oz44e7m6un2+vLx-uP97ef-6vb5Al5fUHPT4Qv7A"
            "sGQ34AmFQhHg+EguGA2HQlEYpForHoxGozHIgnYwk4om44l4kn4um0hk0pnUllUtmUjkUrnknlkvmkgX05"
            "ns7n8oWszm8wWMiWi6XCyVimUiqXilVKhVytWK+Wy1XKnXarUG42a-VmjV6y3q3U2o3mq22w0mh12l3W50"
            "Wp2mx32j0+t1ev3e12e33ukP+0MBsOB8NBiPBpOJlMJtPxjNxrOxnMxvPRgtRouRkvJ9PZ-PFsuZ3OF0up"
            "muV+vl2tVhsVuvVjttltNrut5uNzvtgf9vsj8e94dTntD2fdwcLsfTueL0cTldLjfz9czteT1fLncHrd7o"
            "-7ze7w-bi-Hy8nq+n69nm-nt+vj8vr-Pn9Pv+PgCHyA+8QLvMDbwg99v3-YDwKg39ANAyDPwQ2DkOgxC4J"
            "QmCkPgnCsIwtC8Mw9DUNw7CSOIoiKOowjyLogiyMY-DSJYqj6KY1jKJoji2J45juIYrjaM49iBJEvihLE4"
            "TeME0T+Jk8TZIkuTJPkqSFOkrTNJ0jS9PUgy1KM1STJUszlIspSrMUmztP04zzOsuzDNMyzbN0lzHPc+zX"
            "KckkgA"
        ),
    ),
    (
        "GiP-E",
        "OISwCgtAokA",
    ),
    (
        "fn<1<oj3R 6R'D(U\"\n-K[hdE%mc_RWOCm<pEkkj^",
        "GYOwPAjGD2BWDMAlABANkQcgCIAoCqARAFAC0A0gNoAWAJgKICkAtgMYD6iA6gPIDCTYAA50A1iNgA9IA",
    ),
    (
        (
            " o|5J/]E&63S_'wH-xWfL>T~-g}FQ&z/`77if{#;eRE4dpx#Df%XVR/$B#^C#3\"dHgbm\n~B??bLh!5jq"
            "mmS41 jV.ckB#b]\\GtF4Ex={B/AB M[3'rRxIVm]n-te^{MV<OhM:QPa7r3;R?I3>}=.&y`_O~nhu_dFy"
            ",iXifyi)eXH5IVvj497%Gi8dmCSZwPE1=)mW!G4pSR&, ,Tftgw[WPg|$1a6vPH:*u=@?&iz@R4<2umY3u"
            ':x8~p0TSIxu{yA<^Yc~0d4O+0NF[h`\nv/u]L:0:jnOoU"K3k,4{$L9kT('
        ),
        (
            "AQewPgrAUg9AugUQGQDYDMBlA+gcgO4ASAtAB4DqAZgDIB8AKgH5EDmAvgGICKSAXjAAYB2QQEsKAbwDEA"
            "bgCmAJQQAWACYAHEpIAiFAKQANAGryYAEgBCkgHoBhSWgBEKgswBGAWwBQDcwH5frlQAFgCEEABWAI7u7h"
            "hKAIzA4YYAdADGANaWrnAAOgDiAC7sSggkALzi5jAAgubAALIA2mg4AE7yJACShu5wAHZEhbJW4g2GADwA"
            "8kENAFycAAoAhoJtaNLyvl1oNKzlKUgAnvxYUwz9QQCuWCrsRwA0IvpiRyIAlLL6BBA9AG7hJQATkEunyI"
            "gAHCp3DYMAAtPCLBDxcrvdxkEL5JRqDDyJAPYAPOgUQrMPBNMiLZhgUzxZYoP6LAhzABUV3KAAFfEgRDwO"
            "fIlBMAExXdwATTQVzmJAhDDUAAY6BguiQruIjjUJlYxWkGPKVEopgBqeUAOXYTSC-E8fxgVzgVDm8rm4X6"
            "UxAAFUHABpNAZB5KcSmKhAjJ0AAUQA"
        ),
    ),
    (
        "𘄏ïÜ껤\ue81d",
        "gQbnhdj3A7gndYuBdA",
    ),
    (
        (
            "H{𠷬[$|u𧌙㝔RﬆW\ueb71ÿ𮁇_J🤋È\U0001ddcd🙡𑱸\U0001f6feåxÆ🟥𑈄D\U00018dfc遰¬繕\ue6a8ÔÀ⹆"
            "賊𝗀\uf446"
        ),
        (
            "BIb0whuDe7DaAkA+BXQOhuEx9wKuwCVBg3wdUI7XA-4B4bg4jsD6AUoHwbg0LsATg7BuCzu4LwbghnuDgG"
            "4B47Lgf3sCnADwBjLQKf7gEA3AIHsARQMQbgH93ADgkAawKp+gCrOAKwAHAYnSApmMCsG4AHdwGIvQA"
        ),
    ),
    (
        (
            "÷🗐ìʟ\uf68f😰🗨?T2🧺¼gÿ\uf611m𫓀Üଠ🞄𮭉稉🎞\U0001f84di\U000102de𝗵Ê<𬌪📼𬳹Ý\uf25ccﰚ🕔鮬"
            "몘t棚¾\ue6e1O蔾看\uf7dejòUö$£🤘*\ue6a7\ueeeb¬\uf3de🖵iðTÀ🐨.𠙸\uf559最ꟖÛ︌Nl¾^õ𗸁J"
            "\ueed7Í9¾🟦(ï𤯂\U0001f6ee+Cb\U0001b3c0\uee4b묩津🦫🎩\U00015884Q7è\uf7fd🕹2\ue399ኺDÎ"
            "𗘩´ꀰFQÞ\U0001a248¶𣘔E🎍🥀"
        ),
        (
            "O+Xg3Au7A3j5QI8W8oDHskBe7B+AKgJkHwbgv3YD0DmA-4IhvAtoLYbgAzsA7gBNAiAh+4F4bgkvuCQXoD"
            "wbgeftaCyOwEtAABuA9vcCsG4FfdgFMAeQA4bgKn2QgH53AzhuBPnYC7gHSeAxoCwfkIBVdwDXZgDK6ALo"
            "C2LAH2BDs4DygPlDA0O6A994BWAJ4CqAN4ASAGKsQAxdgCpAcrPAa7uAGsA955BAVt2BAAe0AAGQQAodgD"
            "pAQQ3ADz3ATVfAAHNANfKAbcAYP4A5ABsbAD0AV8B8DcBAPYApQHW7gFmAThsQQDP9gAoAe8AlDcAh-ZBA"
            "O72AagBhACNAGg3AAf3AaTvASm7AUlssQGrdzkBK-cA0DcAQnYBFAHYAC8Bf95BAT12MQEzjwC6kABEAOc"
            "BcDcAlHsAFsADAUAMWuAD3ABQbgAk9gBtgFkNwAoewBRTiAWP2sIABXaAA"
        ),
    ),
]

# Odd inputs to decompress, with what lz-string 1.5.0 under Node.js 20 returned
# (LZString.decompressFromEncodedURIComponent(input); null is None).
DECOMPRESS_VECTORS: list[tuple[str, str | None]] = [
    (
        "",
        None,
    ),
    (
        "Q",
        "",
    ),
    (
        "A",
        "",
    ),
    (
        "B",
        "",
    ),
    (
        "$",
        "",
    ),
    (
        "$$$$",
        "",
    ),
    (
        "=",
        "",
    ),
    (
        "==",
        "",
    ),
    (
        "🐢",
        "",
    ),
    (
        "é",
        "",
    ),
    (
        "Q===",
        "",
    ),
    (
        "NoZQlgLgpg",
        "",
    ),
    (
        (
            "NoZQlgLgpgBARABQDYEMCeAVFBrAdAYwHsBbOAXQChgBRANygDsJ4B5BpMB2ZdcqgERTR4AJgAMIgCy4xA"
            "ZlwBGAOx9gGMMVhwFATgBckkXrEBWVTzRQATgvgoOhBhPOpLVkfAaQAXlCSqAYSRCfGx4BTFjGABqcVUAJ"
            "SgAZwBXJGY4eIBaMVVwX3gANlUAaRIwUVUAMVQIJ"
        ),
        "",
    ),
    (
        (
            "NoZQlgLgpgBARABQDYEMCeAVFBrAdAYwHsBbOAXQChgBRANygDsJ4B5BpMB2ZdcqgERTR4AJgAMIgCy4xA"
            "ZlwBGAOx9gGMMVhwFATgBckkXrEBWVTzRQATgvgoOhBhPOpLVkfAaQAXlCSqAYSRCfGx4BTFjGABqcVUAJ"
            "SgAZwBXJGY4eIBaMVVwX3gANlUAaRIwUVUAMVQIJPhZXMpgAJQAB3rtPgoFXBgUQpgAMwUKET6AE1kYfEk"
            "KeRgJyRgA-FkKaUWTGZMKEz78DwAjdcK+gInjuaU+qGmj3YAOPqOPFDmdPpFLgB4FW3whR6Yj6ICOg1kaw"
            "AfAoPABvCCcFJQAD8AF8er0YFBlihZAByHrjRaDERHSTRf49BZQbYifAmLI9TZQDwgQ49fbY2zZMQUI"
        ),
        PTN_6X6,
    ),
    (
        (
            "NoBQNghgngpgTgRgAQCIBaB7A1ygugKFEljgCZVBYFUC65PQgZQEsAvGVAVluACUYBnAVzAAXVAAYAtADF"
            "a BADokEZDDb5SCgMIBjAMxJt5AN6BeDcBEO0l5gMAd0UA7ACYWhMCA6gBffDoUAjPQ6k AAsCnS 5FqkA"
            "NT4bAqkugA8CMgSkvhAA"
        ),
        PTN_5X5_UNICODE,
    ),
    (
        (
            "NoZQlgLgpgBARABQDYEMCeAVFBrAdAYwHsBbOAXQChgBRANygDsJ4B5BpMB2ZdcqgERTR4AJgAMIgCy4xA"
            "ZlwBGAOx9gGMMVhwFATgBckkXrEBWVTzRQATgvgoOhBhPOpLVkfAaQAXlCSqAYSRCfGx4BTFjGABqcVUAJ"
            "SgAZwBXJGY4eIBaMVVwX3gANlUAaRIwUVUAMVQIJPhZXMpgAJQAB3rtPgoFXBgUQpgAMwUKET6AE1kYfEk"
            "KeRgJyRgA-FkKaUWTGZMKEz78DwAjdcK+gInjuaU+qGmj3YAOPqOPFDmdPpFLgB4FW3whR6Yj6ICOg1kaw"
            "AfAoPABvCCcFJQAD8AF8er0YFBlihZAByHrjRaDERHSTRf49BZQbYifAmLI9TZQDwgQ49fbY2zZMQUIA$$"
            "$"
        ),
        PTN_6X6,
    ),
    (
        (
            "NoZQlgLgpgBARABQDYEMCeAVFBrAdAYwHsBbOAXQChgBRANygDsJ4B5BpMB2ZdcqgERTR4AJgAMIgCy4xA"
            "ZlwBGAOx9gGMMVhwFATgBckkXrEBWVTzRQATgvgoOhBhPOpLVkfAaQAXlCSqAYSRCfGx4BTFjGABqcVUAJ"
            "SgAZwBXJGY4eIBaMVVwX3gANlUAaRIwUVUAMVQIJPhZXMpgAJQAB3rtPgoFXBgUQpgAMwUKET6AE1kYfEk"
            "KeRgJyRgA-FkKaUWTGZMKEz78DwAjdcK+gInjuaU+qGmj3YAOPqOPFDmdPpFLgB4FW3whR6Yj6ICOg1kaw"
            "AfAoPABvCCcFJQAD8AF8er0YFBlihZAByHrjRaDERHSTRf49BZQbYifAmLI9TZQDwgQ49fbY2zZMQUIAga"
            "rbage"
        ),
        PTN_6X6,
    ),
    (
        (
            "$oZQlgLgpgBARABQDYEMCeAVFBrAdAYwHsBbOAXQChgBRANygDsJ4B5BpMB2ZdcqgERTR4AJgAMIgCy4xA"
            "ZlwBGAOx9gGMMVhwFATgBckkXrEBWVTzRQATgvgoOhBhPOpLVkfAaQAXlCSqAYSRCfGx4BTFjGABqcVUAJ"
            "SgAZwBXJGY4eIBaMVVwX3gANlUAaRIwUVUAMVQIJPhZXMpgAJQAB3rtPgoFXBgUQpgAMwUKET6AE1kYfEk"
            "KeRgJyRgA-FkKaUWTGZMKEz78DwAjdcK+gInjuaU+qGmj3YAOPqOPFDmdPpFLgB4FW3whR6Yj6ICOg1kaw"
            "AfAoPABvCCcFJQAD8AF8er0YFBlihZAByHrjRaDERHSTRf49BZQbYifAmLI9TZQDwgQ49fbY2zZMQUIA"
        ),
        (
            'PSite "PlayTak.com"]\nPEvent "Online Play"]\nPDate "2024.03.17"]\nPTime "19:42:05"'
            ']\nPPlayer1 "alion02"]\nPPlayer2 "nitzel"]\nPClock "10:0 +20"]\nPResult "R-0"]\nPS'
            'ize "6"]\nPKomi "2"]\nPFlats "30"]\nPCaps "1"]\n\n1. a6 f1\n2. d3 c4\n3. d4 Cc3\n4'
            ". d5 c5\n5. c2 b3\n6. Cd2 b4\n7. e3 b5\n8. b2 a4\n9. 2d2<11 c6\n10. Sb6 3c3>12 {ti"
            "nue?}\n11. e4 a3'\n12. d6 2b4+11\n13. e5 2c5-\n14. e2 Sc2\n15. e1 R-0\n"
        ),
    ),
    (
        "EQ",
        "",
    ),
    (
        "BQ",
        "",
    ),
    (
        "IQ",
        "",
    ),
    (
        "IEQ",
        "",
    ),
    (
        "N4Ig",
        "",
    ),
    (
        "@@@@",
        "",
    ),
    (
        "Ov8",
        None,
    ),
    (
        "F+9",
        None,
    ),
    (
        "F 9",
        None,
    ),
    (
        "G-y",
        None,
    ),
    (
        "MZ",
        "c",
    ),
    (
        "Ct",
        "Ô",
    ),
]


@pytest.mark.parametrize(("text", "expected"), COMPRESS_VECTORS)
def test_compress_matches_js(text: str, expected: str) -> None:
    assert compress_to_encoded_uri_component(text) == expected


@pytest.mark.parametrize(("text", "compressed"), COMPRESS_VECTORS)
def test_decompress_reads_js_output(text: str, compressed: str) -> None:
    assert decompress_from_encoded_uri_component(compressed) == text


@pytest.mark.parametrize(("data", "expected"), DECOMPRESS_VECTORS)
def test_decompress_matches_js_on_odd_input(data: str, expected: str | None) -> None:
    assert decompress_from_encoded_uri_component(data) == expected


def test_invalid_first_code_is_none() -> None:
    # Deliberate deviation: JS reads "0" as "first code 3", carries on with `undefined`
    # and returns "" (or junk, or throws); no compressor output starts that way.
    assert decompress_from_encoded_uri_component("0") is None


def test_empty_string_round_trip() -> None:
    assert compress_to_encoded_uri_component("") == "Q"
    assert decompress_from_encoded_uri_component("Q") == ""
    assert decompress_from_encoded_uri_component("") is None


def test_ptn_ninja_link_is_url_safe() -> None:
    link = "https://ptn.ninja/" + compress_to_encoded_uri_component(PTN_5X5_UNICODE)
    assert link.isascii()
    assert not set(link) & set("?#&%= ")


def _like_js(text: str) -> str:
    """What JS hands back: UTF-16 has no way to keep adjacent surrogates apart from a pair."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


URI_SAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-")


@given(st.text(alphabet=st.characters(exclude_categories=("Cs",))))
def test_round_trip_any_text(text: str) -> None:
    compressed = compress_to_encoded_uri_component(text)
    assert set(compressed) <= URI_SAFE
    assert decompress_from_encoded_uri_component(compressed) == text


@settings(max_examples=50)
@given(st.text(alphabet="ab_proto \n🐢ë名", max_size=3000))
def test_round_trip_repetitive_text(text: str) -> None:
    # A small alphabet builds long dictionary phrases and widens the codes many times.
    compressed = compress_to_encoded_uri_component(text)
    assert decompress_from_encoded_uri_component(compressed) == text


SURROGATES_AND_NEIGHBOURS = st.characters(
    min_codepoint=0xD7F0, max_codepoint=0xE010, exclude_categories=()
) | st.sampled_from("a🐢ë")


@given(st.text(alphabet=SURROGATES_AND_NEIGHBOURS))
def test_round_trip_with_lone_surrogates(text: str) -> None:
    # Surrogates go through as UTF-16 code units, exactly as in a JS string; a high one
    # followed by a low one becomes the character they pair into, since JS can't tell.
    compressed = compress_to_encoded_uri_component(text)
    assert decompress_from_encoded_uri_component(compressed) == _like_js(text)


@given(st.text())
def test_plus_may_arrive_as_space(text: str) -> None:
    # A form decoder can turn "+" into " "; lz-string reads spaces as "+".
    compressed = compress_to_encoded_uri_component(text)
    assert decompress_from_encoded_uri_component(compressed.replace("+", " ")) == text


def test_output_is_capped_however_small_the_link() -> None:
    # LZW doubles phrases: a link of 1.5 KB holds 300,001 "a"s; a crafted one holds millions.
    at_cap = compress_to_encoded_uri_component("a" * MAX_DECOMPRESSED_LENGTH)
    assert decompress_from_encoded_uri_component(at_cap) == "a" * MAX_DECOMPRESSED_LENGTH
    over = compress_to_encoded_uri_component("a" * (MAX_DECOMPRESSED_LENGTH + 1))
    assert len(over) < 2_000
    with pytest.raises(PTNError, match="decodes to more than 300,000 characters"):
        decompress_from_encoded_uri_component(over)


def test_links_longer_than_the_cap_are_not_read() -> None:
    with pytest.raises(PTNError, match="is longer than 300,000 characters"):
        decompress_from_encoded_uri_component("A" * (MAX_DECOMPRESSED_LENGTH + 1))
