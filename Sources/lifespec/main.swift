import LifeSpecCLI

LifeSpecCommand.main()
