"""Team leagues: teams of N boards with captains, rosters and substitutes, meeting in a team
round robin whose lineups are due by each round's deadline (:mod:`bot.leagues.service`); the
pure rules of boards, lineups and standings in :mod:`bot.leagues.scoring`."""
