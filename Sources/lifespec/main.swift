import LifeSpecCLI
LifeSpecCommand.main()
