from belief.cli import main

main()
