; The CoBel-World transport world (text TDW-MAT): objects and containers in rooms, a bed as the goal.
; The rules are CoBel-World's belief forms: zero-order facts about objects, rooms and the partner,
; first-order facts about what the partner believes.
(define (domain transport)
  (:types place - entity
          room container bed - place
          target - entity
          food stuff - target
          explore_state - entity)
  (:constants none part all - explore_state)
  (:predicates (in ?o - target ?p - place)
               (at ?a - agent ?r - room)
               (hold ?a - agent ?o - entity)
               (contain ?c - container ?o - target)
               (explored ?r - room ?s - explore_state))
  (:functional in at explored)
  (:rules
    "?agentA BELIEVE ?object IN ?room"
    "?agentA BELIEVE ?agentB AT ?room"
    "?agentA BELIEVE ?agentB HOLD ?object"
    "?agentA BELIEVE ?container CONTAIN ?object"
    "?agentA BELIEVE ?room EXPLORED ?state"
    "?agentA BELIEVE ?agentB BELIEVE ?object IN ?room"
    "?agentA BELIEVE ?agentB BELIEVE ?room EXPLORED ?state"
    "?agentA BELIEVE ?agentB BELIEVE ?agentA AT ?room"
    "?object IN ?room" "?agentA AT ?room" "?agentA HOLD ?object" "?container CONTAIN ?object"
    "?room EXPLORED ?state"))
