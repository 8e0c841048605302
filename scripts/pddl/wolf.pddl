;; The wolf, the goat and the cabbage (scripts/wolf.ds) in PDDL: a human takes an animal
;; where both are, carries it, puts it down where it is, and moves along links. STRIPS has no
;; quantifiers, so the demon's test "nobody is left with its prey" becomes two move actions,
;; one for each way the bank left behind is safe: the goat is not there, or it is there alone
;; (neither the wolf nor the cabbage is).
(define (domain wolf)
  (:requirements :strips :typing :negative-preconditions)
  (:types being place - object human animal - being)
  (:constants wolf goat cabbage - animal)
  (:predicates (on ?x - being ?p - place) (hold ?h - human ?a - animal) (free ?h - human)
               (link ?a - place ?b - place))
  (:action take :parameters (?h - human ?a - animal ?p - place)
    :precondition (and (free ?h) (on ?h ?p) (on ?a ?p))
    :effect (and (not (free ?h)) (hold ?h ?a) (not (on ?a ?p))))
  (:action put :parameters (?h - human ?a - animal ?p - place)
    :precondition (and (hold ?h ?a) (on ?h ?p))
    :effect (and (not (hold ?h ?a)) (free ?h) (on ?a ?p)))
  (:action move-leaving-no-goat :parameters (?h - human ?from - place ?to - place)
    :precondition (and (on ?h ?from) (link ?from ?to) (not (on goat ?from)))
    :effect (and (not (on ?h ?from)) (on ?h ?to)))
  (:action move-leaving-the-goat-alone :parameters (?h - human ?from - place ?to - place)
    :precondition (and (on ?h ?from) (link ?from ?to) (on goat ?from) (not (on wolf ?from)) (not (on cabbage ?from)))
    :effect (and (not (on ?h ?from)) (on ?h ?to))))
