; The Sally-Anne world of ToMi / Hi-ToM: agents move between rooms, objects sit in containers.
(define (domain tomi)
  (:types place - entity
          room container - place
          item - entity)
  (:predicates (in ?i - item ?p - place)
               (at ?a - agent ?r - room)
               (inside ?c - container ?r - room))
  (:functional in at inside))
