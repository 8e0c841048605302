;; One farmer, everyone on bank 1; everyone on bank 2, nothing carried, is the goal.
(define (problem wolf-1) (:domain wolf)
  (:objects f - human bank1 bank2 - place)
  (:init (free f) (on f bank1) (on wolf bank1) (on goat bank1) (on cabbage bank1)
         (link bank1 bank2) (link bank2 bank1))
  (:goal (and (on f bank2) (on wolf bank2) (on goat bank2) (on cabbage bank2))))
