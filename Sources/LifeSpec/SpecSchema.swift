/// The JSON Schema of the spec format (draft 2020-12), as `schema/lifespec.schema.json` holds it:
/// `lifespec schema` prints it and `lifespec init` writes it beside a project's specs, so editors
/// (the yaml-language-server behind VS Code's YAML extension) complete and check specs as they are
/// typed. Tests keep it byte-identical to the file and in line with the parser's keys.
public enum SpecSchema {
    /// The file's place in this repository, and where `init` puts a copy in a project.
    public static let path = "schema/lifespec.schema.json"

    public static let json = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://lifespec.invalid/schema/lifespec.schema.json",
          "title": "LifeSpec spec (format version 1)",
          "description": "One lifecycle as a state machine: states, events, transitions, the callbacks and notifications they emit, and scenarios. Reference: docs/spec-format.md.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "lifespec",
            "id"
          ],
          "anyOf": [
            {
              "required": [
                "states",
                "initial"
              ]
            },
            {
              "required": [
                "parts"
              ]
            }
          ],
          "properties": {
            "lifespec": {
              "description": "The format version: 1.",
              "const": 1
            },
            "id": {
              "description": "The spec id: lowercase letters, digits and '-', starting with a letter. It names Output/<id>/ and the generated Swift types.",
              "type": "string",
              "pattern": "^[a-z][a-z0-9-]*$"
            },
            "title": {
              "description": "The spec's title.",
              "$ref": "#/$defs/localizedText"
            },
            "summary": {
              "description": "One paragraph: what the lifecycle is.",
              "$ref": "#/$defs/localizedText"
            },
            "platform": {
              "description": "The platform whose API catalog checks callback and notification names (LS170); it is also the recorder's framework.",
              "enum": [
                "uikit"
              ]
            },
            "catalogs": {
              "description": "API catalogs the spec's callback and notification names are checked against (LS170), together with the platform's. A name passes when any catalog has it.",
              "anyOf": [
                {
                  "description": "A built-in catalog ('uikit') or the path of a catalog file, relative to the spec (ends in .yaml, .yml or .json).",
                  "type": "string"
                },
                {
                  "type": "array",
                  "items": {
                    "description": "A built-in catalog ('uikit') or the path of a catalog file, relative to the spec (ends in .yaml, .yml or .json).",
                    "type": "string"
                  }
                }
              ]
            },
            "locales": {
              "description": "Locales of the localizable texts; the first is the default. Each is a BCP 47 tag such as 'en' or 'zh-Hans'.",
              "type": "array",
              "uniqueItems": true,
              "items": {
                "type": "string",
                "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$"
              }
            },
            "sources": {
              "description": "Documentation the spec cites: id → {title, url}. Any element cites one with 'source: <id>'.",
              "type": "object",
              "propertyNames": {
                "$ref": "#/$defs/elementID"
              },
              "additionalProperties": {
                "description": "A cited page.",
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "url"
                ],
                "properties": {
                  "title": {
                    "description": "The page's title (default: the id).",
                    "$ref": "#/$defs/localizedText"
                  },
                  "url": {
                    "description": "An http(s) address without spaces.",
                    "type": "string",
                    "pattern": "^https?://\\S+$"
                  }
                }
              }
            },
            "states": {
              "description": "The states: id → state (a nested 'states' makes a compound state).",
              "type": "object",
              "minProperties": 1,
              "propertyNames": {
                "$ref": "#/$defs/elementID"
              },
              "additionalProperties": {
                "$ref": "#/$defs/state"
              }
            },
            "initial": {
              "description": "The machine's initial state (a state id), or a list of states: one per region of a parallel state.",
              "anyOf": [
                {
                  "$ref": "#/$defs/text"
                },
                {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "$ref": "#/$defs/text"
                  }
                }
              ]
            },
            "events": {
              "description": "The events that drive the machine: id → {title, kind, description}. An empty body is allowed.",
              "type": "object",
              "propertyNames": {
                "$ref": "#/$defs/elementID"
              },
              "additionalProperties": {
                "description": "An event.",
                "type": [
                  "object",
                  "null"
                ],
                "additionalProperties": false,
                "properties": {
                  "title": {
                    "description": "Display name (default: the id).",
                    "$ref": "#/$defs/localizedText"
                  },
                  "kind": {
                    "description": "Who causes it: the user, the system, or the machine itself (raised). Default: system.",
                    "enum": [
                      "user",
                      "system",
                      "internal"
                    ]
                  },
                  "description": {
                    "description": "What happens.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "source": {
                    "description": "The id of a source (under 'sources') this element cites.",
                    "$ref": "#/$defs/sourceRef"
                  }
                }
              }
            },
            "flags": {
              "description": "Boolean flags that guards test and transitions set: id → {title, default, description}. Names 'true' and 'false' are not allowed.",
              "type": "object",
              "propertyNames": {
                "allOf": [
                  {
                    "$ref": "#/$defs/elementID"
                  },
                  {
                    "not": {
                      "enum": [
                        "true",
                        "false"
                      ]
                    }
                  }
                ]
              },
              "additionalProperties": {
                "description": "A flag.",
                "type": [
                  "object",
                  "null"
                ],
                "additionalProperties": false,
                "properties": {
                  "title": {
                    "description": "What the flag says when true, worded to read in a guard (drawings show guards and 'set' with it, negated in words), e.g. {en: exiting on suspend, zh-Hans: 在挂起时退出}.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "default": {
                    "description": "The value at the start (default false).",
                    "type": "boolean"
                  },
                  "description": {
                    "description": "What the flag means.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "source": {
                    "description": "The id of a source (under 'sources') this element cites.",
                    "$ref": "#/$defs/sourceRef"
                  }
                }
              }
            },
            "facts": {
              "description": "The facts states may state (id → {title, description}), with the localizable title their column shows. Once declared, a state may only state declared facts (LS114).",
              "type": "object",
              "propertyNames": {
                "$ref": "#/$defs/elementID"
              },
              "additionalProperties": {
                "description": "A fact.",
                "type": [
                  "object",
                  "null"
                ],
                "additionalProperties": false,
                "properties": {
                  "title": {
                    "description": "The column title (default: the id).",
                    "$ref": "#/$defs/localizedText"
                  },
                  "description": {
                    "description": "What the fact means.",
                    "$ref": "#/$defs/localizedText"
                  }
                }
              }
            },
            "callbacks": {
              "description": "Callbacks the system calls on the app: id → {swift, objc, …}. Transitions run them with 'do'.",
              "type": "object",
              "propertyNames": {
                "$ref": "#/$defs/elementID"
              },
              "additionalProperties": {
                "description": "A callback.",
                "type": [
                  "object",
                  "null"
                ],
                "additionalProperties": false,
                "properties": {
                  "kind": {
                    "description": "'method' (the default): a method UIKit calls; 'closure': a closure the app passed to an API ('passedTo'), called back.",
                    "enum": [
                      "method",
                      "closure"
                    ]
                  },
                  "passedTo": {
                    "description": "For a closure: the API it is passed to, e.g. beginBackgroundTask(expirationHandler:).",
                    "$ref": "#/$defs/text"
                  },
                  "swift": {
                    "description": "The Swift name in Apple's form, e.g. applicationDidBecomeActive(_:) (default: the id). Logs and the recorder use it.",
                    "$ref": "#/$defs/text"
                  },
                  "objc": {
                    "description": "The Objective-C selector, e.g. applicationDidBecomeActive:.",
                    "$ref": "#/$defs/text"
                  },
                  "returns": {
                    "description": "The return type, when not Void.",
                    "$ref": "#/$defs/text"
                  },
                  "description": {
                    "description": "What the callback means.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "usage": {
                    "description": "What an implementation should do in it.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "posts": {
                    "description": "The notification posted with this callback: its id (posted after the callback), or {notification, order: before|after}.",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/text"
                      },
                      {
                        "description": "A posted notification and its order.",
                        "type": "object",
                        "additionalProperties": false,
                        "required": [
                          "notification"
                        ],
                        "properties": {
                          "notification": {
                            "description": "A notification id.",
                            "$ref": "#/$defs/text"
                          },
                          "order": {
                            "description": "Posted before or after the callback (default after).",
                            "enum": [
                              "before",
                              "after"
                            ]
                          }
                        }
                      }
                    ]
                  },
                  "deprecated": {
                    "description": "true, or {since, replacement, note}.",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/bool"
                      },
                      {
                        "description": "A deprecation.",
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                          "since": {
                            "description": "The version that deprecated it, e.g. iOS 13.",
                            "$ref": "#/$defs/text"
                          },
                          "replacement": {
                            "description": "What to use instead.",
                            "$ref": "#/$defs/text"
                          },
                          "note": {
                            "description": "A note for the reference page.",
                            "$ref": "#/$defs/localizedText"
                          }
                        }
                      }
                    ]
                  },
                  "timeLimit": {
                    "description": "How long the system waits for the callback: a number with ms, s or min, e.g. 5s.",
                    "type": "string",
                    "pattern": "^\\s*[0-9.]+([eE][-+]?[0-9]+)?\\s*(ms|min|s)$"
                  },
                  "source": {
                    "description": "The id of a source (under 'sources') this element cites.",
                    "$ref": "#/$defs/sourceRef"
                  }
                }
              }
            },
            "notifications": {
              "description": "Notifications posted to observers: id → {swift, objc, description}.",
              "type": "object",
              "propertyNames": {
                "$ref": "#/$defs/elementID"
              },
              "additionalProperties": {
                "description": "A notification.",
                "type": [
                  "object",
                  "null"
                ],
                "additionalProperties": false,
                "properties": {
                  "swift": {
                    "description": "The Swift name, qualified by its owner, e.g. UIApplication.didBecomeActiveNotification (default: the id).",
                    "$ref": "#/$defs/text"
                  },
                  "objc": {
                    "description": "The Objective-C constant, e.g. UIApplicationDidBecomeActiveNotification.",
                    "$ref": "#/$defs/text"
                  },
                  "description": {
                    "description": "What the notification means.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "source": {
                    "description": "The id of a source (under 'sources') this element cites.",
                    "$ref": "#/$defs/sourceRef"
                  }
                }
              }
            },
            "transitions": {
              "description": "The transitions, in priority order: among those of one state, the first enabled one is taken.",
              "type": "array",
              "items": {
                "description": "A transition: from, on (or always: true), and optionally guard, to, do, set, raise.",
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "from"
                ],
                "properties": {
                  "from": {
                    "description": "The source state, or a list of them (one transition each).",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/text"
                      },
                      {
                        "type": "array",
                        "items": {
                          "$ref": "#/$defs/text"
                        }
                      }
                    ]
                  },
                  "on": {
                    "description": "The event that triggers it, or a list of events. SCXML descriptors: 'a' also matches 'a.b'; '*' matches every event; done.state.<id> is raised when a state completes.",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/text"
                      },
                      {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                          "$ref": "#/$defs/text"
                        }
                      }
                    ]
                  },
                  "always": {
                    "description": "true: an eventless transition, taken as soon as its guard holds after a step. Not with 'on'.",
                    "type": "boolean"
                  },
                  "guard": {
                    "description": "A condition over flags: flag names, true, false, ! (not), && (and), || (or) and parentheses, e.g. '!purged && (locked || background)'.",
                    "$ref": "#/$defs/text"
                  },
                  "to": {
                    "description": "The target state, or one target per region of a parallel state (default: none, a targetless transition: its actions run, no state is exited or entered).",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/text"
                      },
                      {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                          "$ref": "#/$defs/text"
                        }
                      }
                    ]
                  },
                  "type": {
                    "description": "'external' (the default: a transition to its own source or a descendant exits and re-enters the source) or 'internal' (it does not exit its compound source).",
                    "enum": [
                      "external",
                      "internal"
                    ]
                  },
                  "do": {
                    "description": "Actions, in order: callback ids and {notify: notification id}. A callback that 'posts' a notification posts it too.",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/action"
                      },
                      {
                        "type": "array",
                        "items": {
                          "$ref": "#/$defs/action"
                        }
                      }
                    ]
                  },
                  "set": {
                    "description": "Flags set when the transition is taken (after the actions).",
                    "$ref": "#/$defs/flagValues"
                  },
                  "raise": {
                    "description": "Events queued and processed after this step completes, first in first out.",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/text"
                      },
                      {
                        "type": "array",
                        "items": {
                          "$ref": "#/$defs/text"
                        }
                      }
                    ]
                  },
                  "description": {
                    "description": "Why or when it happens.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "source": {
                    "description": "The id of a source (under 'sources') this element cites.",
                    "$ref": "#/$defs/sourceRef"
                  }
                },
                "anyOf": [
                  {
                    "required": [
                      "on"
                    ]
                  },
                  {
                    "required": [
                      "always"
                    ]
                  }
                ]
              }
            },
            "scenarios": {
              "description": "Named runs, replayed through the engine by validate (LS160, LS161) and turned into test cases.",
              "type": "array",
              "items": {
                "description": "A scenario.",
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "id"
                ],
                "properties": {
                  "id": {
                    "description": "The scenario id.",
                    "$ref": "#/$defs/elementID"
                  },
                  "title": {
                    "description": "Display name.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "description": {
                    "description": "What it shows.",
                    "$ref": "#/$defs/localizedText"
                  },
                  "from": {
                    "description": "The state it starts in (default: the initial state, entered first). A scenario that starts from a state starts in it: eventless transitions fire only after an event.",
                    "$ref": "#/$defs/text"
                  },
                  "flags": {
                    "description": "Flag values at the start (others take their defaults).",
                    "$ref": "#/$defs/flagValues"
                  },
                  "events": {
                    "description": "The events sent, in order.",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/text"
                      },
                      {
                        "type": "array",
                        "items": {
                          "$ref": "#/$defs/text"
                        }
                      }
                    ]
                  },
                  "expect": {
                    "description": "The exact callbacks and notifications the run emits, in order (null or [] for none). Omit to check only 'end'.",
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "$ref": "#/$defs/expected"
                    }
                  },
                  "end": {
                    "description": "The state it ends in, or one state per region (checked against the engine's run).",
                    "anyOf": [
                      {
                        "$ref": "#/$defs/text"
                      },
                      {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                          "$ref": "#/$defs/text"
                        }
                      }
                    ]
                  },
                  "source": {
                    "description": "The id of a source (under 'sources') this element cites.",
                    "$ref": "#/$defs/sourceRef"
                  }
                }
              }
            },
            "parts": {
              "description": "Makes this a system spec: part name → a spec beside this file, included as a parallel region whose ids are prefixed with the part name (A.appeared, A.push, A.viewDidLoad). The spec's own states, if any, form one more region, the coordinator.",
              "type": "object",
              "propertyNames": {
                "type": "string",
                "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"
              },
              "additionalProperties": {
                "anyOf": [
                  {
                    "description": "The id of a single-object spec beside this file (Spec/<id>.yaml).",
                    "type": "string",
                    "pattern": "^[a-z][a-z0-9-]*$"
                  },
                  {
                    "description": "The part's spec with the system's own title and description for it.",
                    "type": "object",
                    "additionalProperties": false,
                    "required": [
                      "spec"
                    ],
                    "properties": {
                      "spec": {
                        "description": "The id of a single-object spec beside this file (Spec/<id>.yaml).",
                        "type": "string",
                        "pattern": "^[a-z][a-z0-9-]*$"
                      },
                      "title": {
                        "description": "What this part is in the system (default: the part spec's title).",
                        "$ref": "#/$defs/localizedText"
                      },
                      "description": {
                        "description": "The part's role in the system.",
                        "$ref": "#/$defs/localizedText"
                      }
                    }
                  }
                ]
              }
            },
            "related": {
              "description": "Other specs this lifecycle touches; the reference pages link to each other.",
              "type": "array",
              "items": {
                "description": "A related spec.",
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "spec"
                ],
                "properties": {
                  "spec": {
                    "description": "The id of a spec beside this one.",
                    "$ref": "#/$defs/text"
                  },
                  "description": {
                    "description": "How they relate.",
                    "$ref": "#/$defs/localizedText"
                  }
                }
              }
            },
            "unhandled": {
              "description": "What an event no transition takes does: 'error' (the default: it is reported and changes nothing) or 'ignore' (SCXML's rule: it is discarded).",
              "enum": [
                "error",
                "ignore"
              ]
            }
          },
          "$defs": {
            "elementID": {
              "description": "An element id: an ASCII letter or '_' first, then ASCII letters, digits, '_', '-' and '.'. Ids become DOT ids, Swift identifiers and file names.",
              "type": "string",
              "pattern": "^[A-Za-z_][A-Za-z0-9_.-]*$"
            },
            "text": {
              "description": "Text: any scalar (YAML reads `42` or `true` as text here too).",
              "type": [
                "string",
                "number",
                "integer",
                "boolean"
              ]
            },
            "localizedText": {
              "description": "Localizable text: one string, or a mapping of locale (declared under 'locales') to string, e.g. {en: Active, zh-Hans: 活跃}.",
              "anyOf": [
                {
                  "$ref": "#/$defs/text"
                },
                {
                  "type": "object",
                  "minProperties": 1,
                  "propertyNames": {
                    "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$"
                  },
                  "additionalProperties": {
                    "$ref": "#/$defs/text"
                  }
                }
              ]
            },
            "bool": {
              "description": "true or false.",
              "type": "boolean"
            },
            "sourceRef": {
              "description": "The id of an entry under 'sources' that this element cites.",
              "$ref": "#/$defs/elementID"
            },
            "stateRef": {
              "description": "The id of a state.",
              "$ref": "#/$defs/text"
            },
            "eventRef": {
              "description": "The id of an event.",
              "$ref": "#/$defs/text"
            },
            "flagValues": {
              "description": "Flag id → true or false.",
              "type": "object",
              "propertyNames": {
                "$ref": "#/$defs/elementID"
              },
              "additionalProperties": {
                "$ref": "#/$defs/bool"
              }
            },
            "state": {
              "description": "A state. An empty body (`active:`) is a plain leaf state. A state with 'states' is compound (entering it enters its 'initial'), or parallel with 'parallel: true' (every child is a region, active at once); a child with 'history' is a history pseudo-state.",
              "type": [
                "object",
                "null"
              ],
              "additionalProperties": false,
              "properties": {
                "title": {
                  "description": "Display name (default: the id).",
                  "$ref": "#/$defs/localizedText"
                },
                "description": {
                  "description": "What the state means.",
                  "$ref": "#/$defs/localizedText"
                },
                "facts": {
                  "description": "Facts shown on the state's reference page: name → true/false, a number or localizable text (e.g. 'runs code: true', 'time limit: 5').",
                  "type": "object",
                  "additionalProperties": {
                    "anyOf": [
                      {
                        "$ref": "#/$defs/bool"
                      },
                      {
                        "type": "number"
                      },
                      {
                        "$ref": "#/$defs/localizedText"
                      }
                    ]
                  }
                },
                "states": {
                  "description": "Child states (id → state): makes this state compound.",
                  "type": "object",
                  "propertyNames": {
                    "$ref": "#/$defs/elementID"
                  },
                  "additionalProperties": {
                    "$ref": "#/$defs/state"
                  }
                },
                "initial": {
                  "description": "The child entered when the compound state is entered, or descendants (one per region of a parallel descendant). Required with 'states' (not with 'parallel'), not allowed without.",
                  "anyOf": [
                    {
                      "$ref": "#/$defs/text"
                    },
                    {
                      "type": "array",
                      "minItems": 1,
                      "items": {
                        "$ref": "#/$defs/text"
                      }
                    }
                  ]
                },
                "final": {
                  "description": "A final state needs no way out (default false).",
                  "type": "boolean"
                },
                "parallel": {
                  "description": "true: every child state is a region, all active at once (SCXML <parallel>). Needs at least two children and no 'initial'.",
                  "type": "boolean"
                },
                "history": {
                  "description": "Makes this child a history pseudo-state: 'shallow' remembers its parent's active child, 'deep' its active atomic states, recorded when the parent is exited.",
                  "enum": [
                    "shallow",
                    "deep"
                  ]
                },
                "default": {
                  "description": "Where a history state leads before anything was recorded (default: its parent's own default entry).",
                  "anyOf": [
                    {
                      "$ref": "#/$defs/text"
                    },
                    {
                      "type": "array",
                      "minItems": 1,
                      "items": {
                        "$ref": "#/$defs/text"
                      }
                    }
                  ]
                },
                "entry": {
                  "description": "Actions run when the state is entered, after its ancestors' entry.",
                  "anyOf": [
                    {
                      "$ref": "#/$defs/blockAction"
                    },
                    {
                      "type": "array",
                      "items": {
                        "$ref": "#/$defs/blockAction"
                      }
                    }
                  ]
                },
                "exit": {
                  "description": "Actions run when the state is exited, after its children's exit.",
                  "anyOf": [
                    {
                      "$ref": "#/$defs/blockAction"
                    },
                    {
                      "type": "array",
                      "items": {
                        "$ref": "#/$defs/blockAction"
                      }
                    }
                  ]
                },
                "source": {
                  "description": "The id of a source (under 'sources') this element cites.",
                  "$ref": "#/$defs/sourceRef"
                }
              },
              "if": {
                "required": [
                  "states"
                ],
                "not": {
                  "required": [
                    "parallel"
                  ],
                  "properties": {
                    "parallel": {
                      "const": true,
                      "description": "A parallel state enters every region and needs no 'initial'."
                    }
                  }
                }
              },
              "then": {
                "required": [
                  "initial"
                ]
              }
            },
            "action": {
              "description": "An action of a transition: a callback id (the callback runs), {callback: id}, or {notify: id} (the notification is posted).",
              "anyOf": [
                {
                  "$ref": "#/$defs/text"
                },
                {
                  "type": "object",
                  "additionalProperties": false,
                  "minProperties": 1,
                  "properties": {
                    "callback": {
                      "description": "A callback id.",
                      "$ref": "#/$defs/text"
                    },
                    "notify": {
                      "description": "A notification id.",
                      "$ref": "#/$defs/text"
                    }
                  }
                }
              ]
            },
            "expected": {
              "description": "One expected observation: a callback id, {callback: id} or {notify: notification id}.",
              "$ref": "#/$defs/action"
            },
            "blockAction": {
              "description": "An entry or exit action: a callback id, {callback: id}, {notify: id}, {raise: event} (queued for after the microstep) or {set: {flag: true|false}}.",
              "anyOf": [
                {
                  "$ref": "#/$defs/text"
                },
                {
                  "type": "object",
                  "additionalProperties": false,
                  "minProperties": 1,
                  "properties": {
                    "callback": {
                      "description": "A callback id.",
                      "$ref": "#/$defs/text"
                    },
                    "notify": {
                      "description": "A notification id.",
                      "$ref": "#/$defs/text"
                    },
                    "raise": {
                      "description": "An event (or a list) raised onto the internal queue.",
                      "anyOf": [
                        {
                          "$ref": "#/$defs/text"
                        },
                        {
                          "type": "array",
                          "items": {
                            "$ref": "#/$defs/text"
                          }
                        }
                      ]
                    },
                    "set": {
                      "description": "Flags set: flag → true/false.",
                      "$ref": "#/$defs/flagValues"
                    }
                  }
                }
              ]
            }
          }
        }

        """#
}

extension SpecSchema {
    /// Whether `id` can be a spec's id (lowercase letters, digits and '-', starting with a letter).
    public static func isValidSpecID(_ id: String) -> Bool { SpecParser.isValidSpecID(id) }

    /// A starter spec: three states, a guard, a callback that posts a notification and a
    /// scenario, valid as written; its first line points editors at the schema.
    public static func starterSpec(id: String, path: String, schemaLocation: String) -> String {
        let title = id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return """
            # yaml-language-server: $schema=\(schemaLocation)
            # A LifeSpec spec: one lifecycle as a state machine. The format: docs/spec-format.md.
            # Check it:  lifespec validate \(path)
            # Run it:    lifespec simulate \(path) start pause resume
            lifespec: 1
            id: \(id)
            title: \(title)
            summary: A starter lifecycle; replace its states, events and callbacks with yours.

            states:
              idle:
                title: Idle
                description: Nothing runs yet.
              running:
                title: Running
              paused:
                title: Paused
            initial: idle

            events:
              start: {title: Start, kind: user}
              pause: {title: Pause, kind: user}
              resume: {title: Resume, kind: user}
              stop: {title: Stop, kind: user}
              expire: {title: Session expires, kind: system}

            flags:
              sessionValid:
                default: true
                description: Whether a paused run may resume.

            callbacks:
              didStart:
                swift: "didStart()"
                description: Called when the run starts or resumes.
                posts: didStartNotification
              didPause: {swift: "didPause()"}
              didStop: {swift: "didStop()"}

            notifications:
              didStartNotification: {swift: "Player.didStartNotification"}

            transitions:
              - {from: idle, on: start, to: running, do: didStart}
              - {from: running, on: pause, to: paused, do: didPause}
              - {from: paused, on: resume, guard: sessionValid, to: running, do: didStart}
              - {from: paused, on: expire, set: {sessionValid: false}}
              - {from: [running, paused], on: stop, to: idle, do: didStop, set: {sessionValid: true}}

            scenarios:
              - id: pauseAndResume
                title: Pause, then resume
                events: [start, pause, resume]
                expect: [didStart, {notify: didStartNotification}, didPause, didStart, {notify: didStartNotification}]
                end: running

            """
    }
}
